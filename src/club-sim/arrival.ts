/**
 * When a request reached the club. A club across a network has a front door (a proxy or load
 * balancer) that stamps each request with the moment it came in, `X-Request-Start: t=<µs since the
 * epoch>`, the convention of Heroku's router and nginx setups: arrival is then that moment, and the
 * time the request waited behind the club's own work before the server took it in is told apart.
 * Without the header (a client straight on the club's port) arrival is when the server took it in.
 */
export const REQUEST_START_HEADER = "X-Request-Start";

export interface Arrival {
  /** On the club's clock. */
  clubMs: number;
  /** From the front door to the server taking it in; absent without a front door. */
  queuedMs?: number;
}

/** A stamp older than this, or in the future, is not one the front door just made: it is ignored. */
const MAX_DOOR_WAIT_MS = 60_000;

/** The header's value for a request coming in now (the front door's side). */
export const requestStartValue = (epochMs = performance.timeOrigin + performance.now()): string => `t=${Math.round(epochMs * 1000)}`;

/** When `request` reached the club, the server having taken it in at `takenClubMs` (the club's clock). */
export function arrivalOf(request: Request, takenClubMs: number): Arrival {
  const stamp = /^t=(\d{13,17})$/.exec(request.headers.get(REQUEST_START_HEADER)?.trim() ?? "");
  if (!stamp) return { clubMs: takenClubMs };
  const queuedMs = performance.timeOrigin + performance.now() - Number(stamp[1]) / 1000;
  if (!(queuedMs >= 0 && queuedMs <= MAX_DOOR_WAIT_MS)) return { clubMs: takenClubMs };
  return { clubMs: takenClubMs - queuedMs, queuedMs };
}
