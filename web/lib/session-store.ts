/**
 * The session (spec §4): unknown until the status check, then authenticated or anonymous.
 * Logout clears the setup wizard state, closes the socket and clears the user.
 */
import { create } from "zustand";
import { apiRequest } from "./api.ts";
import { clientLog } from "./client-log.ts";
import { useLiveDataStore } from "./live-data-store.ts";
import { appSocket } from "./socket.ts";
import { SETUP_WIZARD_STORAGE_KEY } from "./storage-keys.ts";
import type { AuthStatus, SessionUser } from "./types.ts";

export type SessionStatus = "unknown" | "authenticated" | "anonymous";

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
}

let pendingCheck: Promise<void> | null = null;

/** Drops a status call still waiting (tests: one that a previous test never answered). */
export function forgetPendingSessionCheck(): void {
  pendingCheck = null;
}

type SetSession = (partial: Partial<Pick<SessionState, "status" | "user">>) => void;

async function runSessionCheck(set: SetSession): Promise<void> {
  try {
    const result = await apiRequest<AuthStatus>("/v1/auth/status");
    if (result.isAuthenticated && result.user) set({ status: "authenticated", user: result.user });
    else set({ status: "anonymous", user: null });
  } catch (error) {
    clientLog.error("Session check failed", { error: error instanceof Error ? error.message : String(error) });
    set({ status: "anonymous", user: null });
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
    const { user } = await apiRequest<{ user: SessionUser }>("/v1/auth/login", {
      method: "POST",
      body: { username, password },
    });
    set({ status: "authenticated", user, hasJustFinishedSetup: false });
    return user;
  },
  async signOut() {
    try {
      await apiRequest<void>("/v1/auth/logout", { method: "POST" });
    } catch (error) {
      // The member asked to leave: drop the local session even if the server call failed.
      clientLog.warn("Logout call failed", { error: error instanceof Error ? error.message : String(error) });
    }
    clearSetupWizardState();
    appSocket.close();
    useLiveDataStore.getState().clearLiveData();
    set({ status: "anonymous", user: null, hasJustFinishedSetup: false });
  },
  markSetupFinished() {
    set({ hasJustFinishedSetup: true });
  },
  clearSetupFinished() {
    set({ hasJustFinishedSetup: false });
  },
}));

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

/** Spec §2: non-superadmins missing name, member id or club email are sent to /setup. */
export function needsProfileSetup(user: SessionUser): boolean {
  // A password an admin typed is replaced first, whatever the role (the server answers nothing else).
  return Boolean(user.mustSetPassword) || (user.role !== "superadmin" && !hasCompleteProfile(user));
}
