/**
 * The session: unknown until the status check, then authenticated or anonymous.
 * Logout turns push off for this device, clears the setup wizard state, closes the socket and
 * clears the user.
 */
import { create } from "zustand";
import { authStatusSchema, userResponseSchema } from "../../src/features/auth/auth-responses.schemas.ts";
import { ApiError, apiRequest } from "./api.ts";
import { apiPaths } from "./api-paths.ts";
import { clientLog } from "./client-log.ts";
import { useLiveDataStore } from "./live-data-store.ts";
import { clearOfflineSnapshot } from "./offline-snapshot.ts";
import { resourceCache } from "./resources.ts";
import { appSocket } from "./socket.ts";
import { SETUP_WIZARD_STORAGE_KEY } from "./storage-keys.ts";
import type { SessionUser } from "./types.ts";

/** `offline`: the server could not be reached at all (the app shell came from the service worker). */
export type SessionStatus = "unknown" | "authenticated" | "anonymous" | "offline";

interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  /** Set by the setup wizard once the profile is saved, so /setup can show its last step instead of redirecting. */
  hasJustFinishedSetup: boolean;
  checkSession(): Promise<void>;
  signIn(username: string, password: string): Promise<SessionUser>;
  signOut(): Promise<void>;
  markSetupFinished(): void;
  clearSetupFinished(): void;
  /** The member set their own password (the server no longer asks for it): the session says so too. */
  markOwnPasswordSet(): void;
}

let pendingCheck: Promise<void> | null = null;

/** Drops a status call still waiting (tests: one that a previous test never answered). */
export function forgetPendingSessionCheck(): void {
  pendingCheck = null;
}

type SetSession = (partial: Partial<Pick<SessionState, "status" | "user">>) => void;

async function runSessionCheck(set: SetSession): Promise<void> {
  try {
    // Not getJson: this answer decides what the first screen shows, so it cannot wait for its paint.
    const result = await apiRequest(apiPaths.auth.status, { schema: authStatusSchema });
    if (result.isAuthenticated && result.user) set({ status: "authenticated", user: result.user });
    else {
      clearOfflineSnapshot();
      set({ status: "anonymous", user: null });
    }
  } catch (error) {
    clientLog.error("Session check failed", { error: error instanceof Error ? error.message : String(error) });
    set({ status: isServerUnreachable(error) ? "offline" : "anonymous", user: null });
  }
}

export const useSessionStore = create<SessionState>()((set) => ({
  status: "unknown",
  user: null,
  hasJustFinishedSetup: false,
  checkSession() {
    // React may mount the gate twice in development; one status call serves both.
    pendingCheck ??= runSessionCheck(set).finally(() => {
      pendingCheck = null;
    });
    return pendingCheck;
  },
  async signIn(username, password) {
    const { user } = await apiRequest(apiPaths.auth.login, {
      method: "POST",
      body: { username, password },
      schema: userResponseSchema,
    });
    set({ status: "authenticated", user, hasJustFinishedSetup: false });
    return user;
  },
  async signOut() {
    // While the session lasts, so the server forgets the device too: a shared phone stops showing
    // the member's news once they leave (loaded only here, since most visits never sign out).
    await import("./push-device.ts")
      .then(({ forgetThisDevice }) => forgetThisDevice())
      .catch((error) => clientLog.warn("Turning push off at logout failed", { error: error instanceof Error ? error.message : String(error) }));
    try {
      await apiRequest(apiPaths.auth.logout, { method: "POST" });
    } catch (error) {
      // The member asked to leave: drop the local session even if the server call failed.
      clientLog.warn("Logout call failed", { error: error instanceof Error ? error.message : String(error) });
    }
    clearSetupWizardState();
    clearOfflineSnapshot();
    appSocket.close();
    useLiveDataStore.getState().clearLiveData();
    // The next member to sign in on this tab never sees this one's lists, not even for a moment.
    resourceCache.clear();
    set({ status: "anonymous", user: null, hasJustFinishedSetup: false });
  },
  markSetupFinished() {
    set({ hasJustFinishedSetup: true });
  },
  clearSetupFinished() {
    set({ hasJustFinishedSetup: false });
  },
  markOwnPasswordSet() {
    set((state) => (state.user?.mustSetPassword ? { user: { ...state.user, mustSetPassword: false } } : {}));
  },
}));

/**
 * No answer at all (the fetch failed), or a gateway saying Teebox behind it is down: the member
 * is shown what the app last saw instead of the sign-in page.
 */
export function isServerUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError;
}

function clearSetupWizardState(): void {
  try {
    sessionStorage.removeItem(SETUP_WIZARD_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode); nothing to clear then.
  }
}

export function isAdminRole(role: SessionUser["role"] | undefined): boolean {
  return role === "admin" || role === "superadmin";
}

/** Name, member id and club email are all filled in (whatever the role). */
export function hasCompleteProfile(user: SessionUser): boolean {
  return [user.name, user.memberId, user.southwoods_email].every((value) => Boolean(value?.trim()));
}

/** Non-superadmins missing name, member id or club email are sent to /setup. */
export function needsProfileSetup(user: SessionUser): boolean {
  // A password an admin typed is replaced first, whatever the role (the server answers nothing else).
  return Boolean(user.mustSetPassword) || (user.role !== "superadmin" && !hasCompleteProfile(user));
}
