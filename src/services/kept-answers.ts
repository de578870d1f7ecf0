/**
 * The answers every member's screen reads at each reload, kept ready as JSON bytes per database:
 * the tee times, the rules bundle and the advisories (decisions 007, 195). At a release instant
 * hundreds of members reload at once, and building each answer again per request (the database
 * read, the JSON, the gzip) was most of a reload's time on the server. Each is kept until the next
 * Manila midnight, and whatever changes any of them forgets them all: a scrape run stored, an
 * admin's change to the club's configuration or advisories, the settings written.
 */
import { addDays, manilaDate, manilaInstant } from "../domain/manila-time.ts";

export type KeptAnswerName = "tee-times" | "rules" | "advisories";

export interface KeptJson {
  /** The next Manila midnight: until then the answer (a tee sheet's "today") holds without working it out again. */
  validUntil: number;
  /** Encoded once: re-encoding tens of kilobytes per request would cost more than the rest of it. */
  body: Uint8Array<ArrayBuffer>;
  /**
   * Gzipped once, the first time a browser asks for it so: at a release instant hundreds of members
   * reload at once, and gzipping tens of kilobytes for each was a millisecond of the server's time.
   */
  gzip(): Uint8Array<ArrayBuffer>;
  /**
   * The body, and its gzipped copy, as Blobs made once: a Response shares a Blob's bytes where it
   * copies a Uint8Array's, and at thousands of answers a second those copies (tens of kilobytes
   * each) made the collector run a hundred times a second (decision 212).
   */
  bodyBlob(): Blob;
  gzipBlob(): Blob;
}

interface KeptAnswers {
  answers: Map<KeptAnswerName, KeptJson>;
  /** Moves on at each forget: an answer built from reads made before it is not kept. */
  generation: number;
}

/** Per database (its `db`, which every writer holds): three answers at most each. */
const keptByDatabase = new WeakMap<object, KeptAnswers>();

function keptOf(db: object): KeptAnswers {
  let kept = keptByDatabase.get(db);
  if (!kept) {
    kept = { answers: new Map(), generation: 0 };
    keptByDatabase.set(db, kept);
  }
  return kept;
}

interface KeptDeps {
  database: { db: object };
  clock: { now(): number };
}

/** The kept answer while it holds, else undefined (nothing is built). */
export function keptJson(deps: KeptDeps, name: KeptAnswerName): KeptJson | undefined {
  const answer = keptByDatabase.get(deps.database.db)?.answers.get(name);
  return answer && deps.clock.now() < answer.validUntil ? answer : undefined;
}

/** The kept answer, or `build`'s, kept until Manila midnight or until forgotten. */
export async function cachedJson(deps: KeptDeps, name: KeptAnswerName, build: (now: number) => Promise<unknown>): Promise<KeptJson> {
  const held = keptJson(deps, name);
  if (held) return held;
  const now = deps.clock.now();
  const kept = keptOf(deps.database.db);
  const generation = kept.generation;
  const body = new TextEncoder().encode(JSON.stringify(await build(now)));
  let gzipped: Uint8Array<ArrayBuffer> | null = null;
  let bodyBlob: Blob | null = null;
  let gzipBlob: Blob | null = null;
  const gzip = () => (gzipped ??= new Uint8Array(Bun.gzipSync(body)));
  const answer: KeptJson = {
    validUntil: manilaInstant(addDays(manilaDate(now), 1)),
    body,
    gzip,
    bodyBlob: () => (bodyBlob ??= new Blob([body])),
    gzipBlob: () => (gzipBlob ??= new Blob([gzip()])),
  };
  // A change written while this was read is not in it: it answers this request only.
  if (kept.generation === generation) kept.answers.set(name, answer);
  return answer;
}

/** Something the kept answers show has changed in this database: each is built again when next asked for. */
export function forgetKeptAnswers(db: object): void {
  const kept = keptOf(db);
  kept.answers.clear();
  kept.generation++;
}
