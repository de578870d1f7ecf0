/**
 * Route guards: who may see which route, and where everyone else is sent.
 * They read the session store; SessionGate makes sure it is known before any guard runs.
 */
import { useDeferredValue, useEffect } from "react";
import { Navigate, Outlet } from "react-router-dom";
import OfflineView from "../../components/offline-view.tsx";
import { RouteLoading } from "../../components/spinner.tsx";
import { hasCompleteProfile, isAdminRole, needsProfileSetup, useSessionStore } from "../../lib/session-store.ts";
import { appSocket } from "../../lib/socket.ts";
import { paths } from "../../paths.ts";

/** Checks the session once, holds every route behind a spinner until it is known, and keeps the socket open while signed in. */
export function SessionGate() {
  const currentStatus = useSessionStore((state) => state.status);
  // What the gate shows follows as a transition: the page behind it renders in slices, not in one long task.
  const status = useDeferredValue(currentStatus);
  const checkSession = useSessionStore((state) => state.checkSession);

  useEffect(() => {
    if (currentStatus === "unknown") void checkSession();
  }, [currentStatus, checkSession]);

  useEffect(() => {
    if (currentStatus !== "authenticated") return;
    appSocket.connect();
    return () => appSocket.close();
  }, [currentStatus]);

  if (status === "unknown") return <RouteLoading />;
  if (status === "offline") return <OfflineView />;
  return <Outlet />;
}

/** /login: signed-in members go home. */
export function RedirectIfSignedIn() {
  const status = useSessionStore((state) => state.status);
  return status === "authenticated" ? <Navigate to={paths.home} replace /> : <Outlet />;
}

export function RequireSignIn() {
  const status = useSessionStore((state) => state.status);
  return status === "authenticated" ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** Non-superadmins missing name, member id or club email go to /setup first. */
export function RequireProfile() {
  const user = useSessionStore((state) => state.user);
  if (user && needsProfileSetup(user)) return <Navigate to={paths.setup} replace />;
  return <Outlet />;
}

/** /setup: a member whose profile is complete goes home, unless the wizard has just finished. */
export function SetupOnlyWhenNeeded() {
  const user = useSessionStore((state) => state.user);
  const hasJustFinishedSetup = useSessionStore((state) => state.hasJustFinishedSetup);
  if (user && hasCompleteProfile(user) && !user.mustSetPassword && !hasJustFinishedSetup) return <Navigate to={paths.home} replace />;
  return <Outlet />;
}

/** /admin: admins and superadmins only; everyone else goes home. */
export function RequireAdmin() {
  const role = useSessionStore((state) => state.user?.role);
  return isAdminRole(role) ? <Outlet /> : <Navigate to={paths.home} replace />;
}
