/** Seeded randomness, so a run of the demo club can be replayed exactly. */

/** mulberry32: a small, fast PRNG with a 32-bit state; plenty for a simulation. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A number in [0, 1) fixed by the seed and a key. Per-slot facts use it instead of the
 * sequential generator so they do not depend on the order in which pages are requested.
 */
export function hashUnit(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return createRandom(h)();
}
