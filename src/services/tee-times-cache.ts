/**
 * GET /v1/tee-times is what every member's screen reads most, so its JSON is kept ready per Manila
 * day and dropped whenever the scraper stores a run or an admin changes what members see.
 */
import { addDays, manilaDate, manilaInstant } from "../domain/manila-time.ts";

export interface TeeTimesJson {
  /** The next Manila midnight: until then the answer's "today" holds without working out the date again. */
  validUntil: number;
  /** Encoded once: re-encoding tens of kilobytes per request would cost more than the rest of it. */
  body: Uint8Array<ArrayBuffer>;
  /**
   * Gzipped once, the first time a browser asks for it so: at a release instant hundreds of members
   * reload at once, and gzipping tens of kilobytes for each was a millisecond of the server's time.
   */
  gzip(): Uint8Array<ArrayBuffer>;
}
const teeTimesCaches = new WeakMap<object, TeeTimesJson>();

/** The kept answer for this database while it holds, else undefined (nothing is built). */
export function keptTeeTimesJson(deps: { database: object; clock: { now(): number } }): TeeTimesJson | undefined {
  const cached = teeTimesCaches.get(deps.database);
  return cached && deps.clock.now() < cached.validUntil ? cached : undefined;
}

/** The kept answer for this database, or `build`'s, kept until Manila midnight or until forgotten. */
export async function cachedTeeTimesJson(deps: { database: object; clock: { now(): number } }, build: (now: number) => Promise<unknown>): Promise<TeeTimesJson> {
  const now = deps.clock.now();
  const cached = teeTimesCaches.get(deps.database);
  if (cached && now < cached.validUntil) return cached;
  const body = new TextEncoder().encode(JSON.stringify(await build(now)));
  let gzipped: Uint8Array<ArrayBuffer> | null = null;
  const entry: TeeTimesJson = { validUntil: manilaInstant(addDays(manilaDate(now), 1)), body, gzip: () => (gzipped ??= new Uint8Array(Bun.gzipSync(body))) };
  teeTimesCaches.set(deps.database, entry);
  return entry;
}

export function forgetTeeTimesCache(deps: { database: object }): void {
  teeTimesCaches.delete(deps.database);
}
