/**
 * The browser log's contract, shared by the web app's sender and the server's route: an entry is
 * `{ level, message, context }`, and the sender may put several in one post as
 * `{ entries: [...] }`, so a page's routine entries (one per API call) leave together instead of
 * one request each. The server counts a post once against the per-session and per-address limits,
 * and each entry against the log's total.
 */
export const CLIENT_LOG_LEVELS = ["info", "warn", "error", "debug"] as const;
export type ClientLogLevel = (typeof CLIENT_LOG_LEVELS)[number];

/** Most entries in one post. */
export const CLIENT_LOG_BATCH_MAX = 20;
/** How long the sender gathers entries before posting them (a hidden or closing page posts at once). */
export const CLIENT_LOG_FLUSH_MS = 10_000;
