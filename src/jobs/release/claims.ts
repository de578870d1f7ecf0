/**
 * Fairness among Teebox members whose requests are released together (docs/release-engine.md).
 * Each slot is attempted by at most one request at a time: a request claims a slot before it posts
 * and lets go of it with the answer. The earliest-submitted request claims first among its
 * preferences; a later one starts from its first preference nobody has claimed, and moves on when
 * a claimed slot goes to another Teebox member. Pure bookkeeping, no I/O.
 */

export type ClaimOutcome =
  /** The holder booked it, or the club said it is taken: nobody tries it again. */
  | "gone"
  /** The holder gave up for its own reason (a rule, its login): another request may try it. */
  | "free";

export type ClaimChoice =
  | { kind: "try"; time: string }
  /** Every remaining preference is claimed by another request: wait for one to be let go. */
  | { kind: "wait" }
  /** Every preference is gone. */
  | { kind: "exhausted" };

export const slotKey = (date: string, course: string, time: string) => `${date}|${course}|${time}`;

export class ClaimBoard {
  private readonly holders = new Map<string, number>();
  private readonly gone = new Set<string>();
  /**
   * The requests running per date and course. What the board learned of a date ("gone") is kept
   * only while one of them runs: once the last ends, the club's sheet is the truth again, so a
   * slot a member cancels later can be booked by a new request.
   */
  private readonly running = new Map<string, Set<number>>();
  /**
   * Requests waiting for a slot to change, by slot: a change wakes only the requests that want that
   * slot, so a thousand waiting requests are not all woken by each of a few hundred changes.
   */
  private readonly waiting = new Map<string, Set<() => void>>();

  /**
   * The slot a request should try next: its own claim if it holds one, else the first of its
   * preferences (in priority order) that is neither gone, nor excluded for this request, nor
   * claimed by another request. A free slot is claimed for the request on the spot.
   */
  choose(requestId: number, date: string, course: string, times: readonly string[], excluded: ReadonlySet<string> = new Set()): ClaimChoice {
    const dayKey = `${date}|${course}`;
    const running = this.running.get(dayKey) ?? new Set<number>();
    running.add(requestId);
    this.running.set(dayKey, running);
    let isAnyClaimedByOthers = false;
    for (const time of times) {
      if (excluded.has(time)) continue;
      const key = slotKey(date, course, time);
      if (this.gone.has(key)) continue;
      const holder = this.holders.get(key);
      if (holder === undefined || holder === requestId) {
        this.holders.set(key, requestId);
        return { kind: "try", time };
      }
      isAnyClaimedByOthers = true;
    }
    return isAnyClaimedByOthers ? { kind: "wait" } : { kind: "exhausted" };
  }

  /** Lets go of a claim with what became of the slot, and wakes the requests that wait for it. */
  release(requestId: number, date: string, course: string, time: string, outcome: ClaimOutcome): void {
    const key = slotKey(date, course, time);
    if (this.holders.get(key) === requestId) this.holders.delete(key);
    if (outcome === "gone") this.gone.add(key);
    this.wake(key);
  }

  /** Marks a slot as gone without a claim (the club's sheet shows it booked or blocked). */
  markGone(date: string, course: string, time: string): void {
    const key = slotKey(date, course, time);
    this.gone.add(key);
    this.wake(key);
  }

  isGone(date: string, course: string, time: string): boolean {
    return this.gone.has(slotKey(date, course, time));
  }

  holderOf(date: string, course: string, time: string): number | undefined {
    return this.holders.get(slotKey(date, course, time));
  }

  /** Lets go of every claim of a request (it ended, whatever the reason). */
  releaseAll(requestId: number): void {
    const freed: string[] = [];
    for (const [key, holder] of this.holders) {
      if (holder !== requestId) continue;
      this.holders.delete(key);
      freed.push(key);
    }
    for (const [dayKey, requests] of this.running) {
      if (!requests.delete(requestId) || requests.size > 0) continue;
      this.running.delete(dayKey);
      for (const key of this.gone) if (key.startsWith(`${dayKey}|`)) this.gone.delete(key);
    }
    for (const key of freed) this.wake(key);
  }

  /** Wakes every request waiting for a change (the engine is stopping). */
  wakeAll(): void {
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }

  /** Resolves at the next change of one of these slots (claimed, let go, gone), or at wakeAll. */
  changed(date: string, course: string, times: readonly string[]): Promise<void> {
    const keys = times.map((time) => slotKey(date, course, time));
    return new Promise((resolve) => {
      const waiter = () => {
        for (const key of keys) this.forget(key, waiter);
        resolve();
      };
      for (const key of keys) {
        let set = this.waiting.get(key);
        if (!set) this.waiting.set(key, (set = new Set()));
        set.add(waiter);
      }
    });
  }

  /** Forgets the slots of play dates before `date` (they can no longer be booked). */
  forgetBefore(date: string): void {
    for (const key of this.gone) if (key.slice(0, 10) < date) this.gone.delete(key);
  }

  private wake(key: string): void {
    const set = this.waiting.get(key);
    if (!set) return;
    this.waiting.delete(key);
    for (const waiter of set) waiter();
  }

  private forget(key: string, waiter: () => void): void {
    const set = this.waiting.get(key);
    if (!set) return;
    set.delete(waiter);
    if (set.size === 0) this.waiting.delete(key);
  }
}
