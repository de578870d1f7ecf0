/**
 * Work the first screen does not need waits until the browser has painted content: on a phone the
 * network and the main thread are then spent on what the member is waiting for. Used for the
 * data reads (web/lib/api.ts), the UI text overrides, the service worker and the client log.
 *
 * Where the browser cannot say when it painted (no paint timing, a hidden tab, component tests)
 * the work runs at once; a page that never paints content runs it after a few seconds.
 */

/** Longest wait for a first contentful paint (a page showing only a spinner, say). */
export const FIRST_PAINT_TIMEOUT_MS = 3000;

type Task = () => void;

/** What the gate needs from the browser; tests hand in their own. */
export interface PaintWatch {
  /** False when no paint can be waited for (no paint timing, a hidden tab). */
  canWatch(): boolean;
  /** Calls back once on the first contentful paint (also one that already happened); returns the stop. */
  onFirstContentfulPaint(callback: () => void): () => void;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const browserWatch: PaintWatch = {
  canWatch() {
    if (typeof document === "undefined" || document.visibilityState === "hidden") return false;
    const types = globalThis.PerformanceObserver?.supportedEntryTypes;
    return Array.isArray(types) && types.includes("paint");
  },
  onFirstContentfulPaint(callback) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.name === "first-contentful-paint")) callback();
    });
    observer.observe({ type: "paint", buffered: true });
    return () => observer.disconnect();
  },
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createPaintGate(watch: PaintWatch = browserWatch): (task: Task) => void {
  let state: "waiting" | "watching" | "painted" = "waiting";
  const queue: Task[] = [];

  function runSafely(task: Task): void {
    try {
      task();
    } catch (error) {
      // One failing task must not keep the others from running.
      console.error(error);
    }
  }

  function runQueued(): void {
    if (state === "painted") return;
    state = "painted";
    // Each in a task of its own, in order: together they would make one long task.
    for (const task of queue.splice(0)) watch.setTimer(() => runSafely(task), 0);
  }

  function startWatching(): void {
    state = "watching";
    if (!watch.canWatch()) {
      runQueued();
      return;
    }
    const timer = watch.setTimer(runQueued, FIRST_PAINT_TIMEOUT_MS);
    let hasPainted = false;
    const stop = watch.onFirstContentfulPaint(() => {
      if (hasPainted) return;
      hasPainted = true;
      watch.clearTimer(timer);
      runQueued();
    });
    // The watch ends with the queued work, or at once when the paint was already reported.
    if (hasPainted) stop();
    else queue.push(stop);
  }

  return (task) => {
    if (state === "painted") {
      runSafely(task);
      return;
    }
    queue.push(task);
    if (state === "waiting") startWatching();
  };
}

/** Runs `task` once the page has painted content (at once if it already has). */
export const afterFirstPaint: (task: Task) => void = createPaintGate();

/** The same as a promise. */
export function firstPaint(): Promise<void> {
  return new Promise((resolve) => afterFirstPaint(resolve));
}
