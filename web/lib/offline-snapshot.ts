/**
 * What the offline view shows when the server cannot be reached: the member's bookings and
 * requests as the app last saw them, kept in local storage (API answers are never cached by the
 * service worker). Written after every load, removed on logout and when the server says the
 * session has ended, so the next person on a shared phone does not see them.
 */
import type { ConfirmedBookingView, PendingRequestView } from "../../src/domain/bookings-view.ts";
import { useLiveDataStore } from "./live-data-store.ts";
import { OFFLINE_SNAPSHOT_KEY } from "./storage-keys.ts";

export interface OfflineSnapshot {
  /** Epoch ms of the load the lists come from. */
  savedAt: number;
  bookings: ConfirmedBookingView[];
  requests: PendingRequestView[];
  /** Course names by id, from the booking rules loaded with them. */
  courses: { id: string; name: string }[];
}

export function saveOfflineSnapshot(snapshot: OfflineSnapshot, storage: Storage = localStorage): void {
  try {
    storage.setItem(OFFLINE_SNAPSHOT_KEY, JSON.stringify(snapshot));
  } catch {
    // Full or unavailable storage (private mode): the offline view then has nothing to show.
  }
}

/** The saved lists, or null when there are none or they cannot be read. */
export function readOfflineSnapshot(storage: Storage = localStorage): OfflineSnapshot | null {
  try {
    const raw = storage.getItem(OFFLINE_SNAPSHOT_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return isSnapshot(value) ? value : null;
  } catch {
    return null;
  }
}

export function clearOfflineSnapshot(storage: Storage = localStorage): void {
  try {
    storage.removeItem(OFFLINE_SNAPSHOT_KEY);
  } catch {
    // Nothing to clear.
  }
}

function isSnapshot(value: unknown): value is OfflineSnapshot {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.savedAt === "number" && Array.isArray(candidate.bookings) && Array.isArray(candidate.requests) && Array.isArray(candidate.courses);
}

/** Saves the lists each time a full load of live data lands. Returns the unsubscribe. */
export function keepOfflineSnapshot(now: () => number = Date.now): () => void {
  return useLiveDataStore.subscribe((state, previous) => {
    if (!state.hasLoaded) return;
    if (state.bookings === previous.bookings && state.requests === previous.requests && previous.hasLoaded) return;
    const courses = (state.rules?.courseSchedule ?? []).map(({ id, name }) => ({ id, name }));
    saveOfflineSnapshot({ savedAt: now(), bookings: state.bookings, requests: state.requests, courses });
  });
}
