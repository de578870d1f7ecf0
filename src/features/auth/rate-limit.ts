/**
 * Counts failed sign-ins per account and per address in a sliding window. In memory: one process
 * serves the club, and a restart forgetting the counts is acceptable.
 */
export interface RateLimiter {
  isBlocked(key: string, now: number): boolean;
  recordFailure(key: string, now: number): void;
  reset(key: string): void;
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => (failures.get(key) ?? []).filter((t) => now - t < windowMs);
  return {
    isBlocked: (key, now) => recent(key, now).length >= limit,
    recordFailure(key, now) {
      const list = recent(key, now);
      list.push(now);
      failures.set(key, list);
      if (failures.size > 10_000) {
        for (const [k, times] of failures) if (times.every((t) => now - t >= windowMs)) failures.delete(k);
      }
    },
    reset: (key) => void failures.delete(key),
  };
}

export const ACCOUNT_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 20;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
