/**
 * What the server's data-changed messages name: each key is something a member's screens show,
 * reloaded when a change names it (decision 176). The server names the keys an event changed
 * (src/realtime/notifier.ts); the web reloads only what they name (web/lib/resources.ts, and the
 * live data store's parts, web/lib/live-data-store.ts). A new key is one line here, one line where
 * the server names it, and the web's loader for it. Keys under `my.` are one member's own; the others everyone's.
 */
export const RESOURCE_KEYS = [
  /** The member's booking requests (pending, held, processing, failed) and their stories. */
  "my.requests",
  /** The member's confirmed bookings. */
  "my.bookings",
  /** The member's slot watches. */
  "my.watches",
  /** The member's standing requests and their next dates. */
  "my.series",
  /** Playing partners: the invitations the member received and the answers to those they sent. */
  "my.invitations",
  /** The member's saved players. */
  "my.players",
  /** The member's profile (name, member id, club login, defaults). */
  "my.profile",
  /** The member's notification list and its unread count. */
  "my.notifications",
  /** The club's tee sheets as last read (live availability, the bookable dates). */
  "tee-times",
  /** The club's advisories and the admins' announcements. */
  "advisories",
  /** App settings, courses, booking windows, holidays and rules. */
  "settings",
] as const;

export type ResourceKey = (typeof RESOURCE_KEYS)[number];

export function isResourceKey(value: unknown): value is ResourceKey {
  return typeof value === "string" && (RESOURCE_KEYS as readonly string[]).includes(value);
}
