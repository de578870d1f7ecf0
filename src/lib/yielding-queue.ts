/**
 * Work that must not hold the server's one thread for long. A release that ends a thousand
 * requests at once writes a thousand outcomes and stores a thousand notifications; run back to back
 * they held the thread for a third of a second or more, every member's read of that moment behind
 * them (decisions 206 and 207). A yielding queue runs such tasks one after another, in the order
 * given, and lets the event loop turn (`setImmediate`) after every `sliceMs` of them, so the
 * server's waiting reads and the club's answers are taken in before the next slice.
 */

export interface YieldingQueueOptions {
  /** How long the queue's tasks may hold the thread before the event loop turns. */
  sliceMs: number;
  /** A task still unanswered this long (a database across a network not answering) no longer holds up the next. */
  stallMs: number;
}

export interface YieldingQueue {
  /** Runs the task in its turn, after the caller has gone on; settles as the task does. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createYieldingQueue(options: YieldingQueueOptions): YieldingQueue {
  const waiting: (() => Promise<void>)[] = [];
  let isDraining = false;

  async function drain(): Promise<void> {
    isDraining = true;
    try {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      let sliceStart = performance.now();
      while (waiting.length > 0) {
        if (performance.now() - sliceStart >= options.sliceMs) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
        await awaitAtMost(waiting.shift()!(), options.stallMs);
      }
    } finally {
      // Whatever happened, the next task starts a drain again rather than waiting for this one.
      isDraining = false;
    }
  }

  return {
    run(task) {
      return new Promise((resolve, reject) => {
        waiting.push(() => Promise.resolve().then(task).then(resolve, reject));
        if (!isDraining) void drain();
      });
    },
  };
}

/** Waits for `work`, but no longer than `ms`; the work goes on either way, and no timer is left behind. */
async function awaitAtMost(work: Promise<void>, ms: number): Promise<void> {
  let timer: Timer | undefined;
  try {
    await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
