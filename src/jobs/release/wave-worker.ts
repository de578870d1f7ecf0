/**
 * The first wave's own thread (decisions 121, 192, 202). Handed the wave's posts ahead of the instant,
 * it writes each one as HTTP/1.1 bytes and opens a connection to the club for each (at most
 * `maxInFlight`), waits for the instant on its own precise clock (a timer, then 0.2 ms blocking
 * sleeps, then a spin for the last fraction of a millisecond), and
 * writes the posts, earliest-submitted first: at the instant a post is one write on a connection
 * already open, so nothing the main thread is busy with then (a page being served, a garbage
 * collection), no handshake and no request to build can hold it back. Posts beyond the open
 * connections follow on the first connection an answer frees. A post whose connection is not open
 * at the instant goes with fetch. It reports when each post left, then each answer, as plain data.
 */
import type { Socket } from "bun";
import { fetchWire, type WireRequest } from "../../club/http.ts";
import { createPreciseClock } from "../../lib/precise-clock.ts";
import { AnswerReader, encodeRequest, type EncodedRequest } from "../../club/http1.ts";
import { WAVE_ARMED, WAVE_FIRED, type WaveCommand, type WaveReport } from "./wave-messages.ts";

declare const self: Worker;

/** The last stretch before the instant is waited out in short blocking sleeps, not on a timer. */
const FINE_WAIT_MS = 20;
/** How long one of those sleeps lasts at most. */
const FINE_STEP_MS = 0.2;
/** The very last fraction is spun out: a sleep ends a little after it was asked to. */
const SPIN_MS = 0.3;

/**
 * This thread's own precise clock (decision 202): the fire time is a fraction of a millisecond, and
 * each post's moment is told to that precision.
 */
const clock = createPreciseClock();

const report = (message: WaveReport) => self.postMessage(message);

self.onmessage = (event: MessageEvent<WaveCommand>) => {
  void runWave(event.data);
};

/** A connection opened ahead, and the post it carries now. */
interface Line {
  socket: Socket<Line> | null;
  isOpen: boolean;
  /** The post being answered on it, with its reader; null while it waits for one. */
  current: { index: number; reader: AnswerReader; timer: Timer } | null;
  /** Bytes the socket would not take at once, written when it drains. */
  unwritten: Uint8Array | null;
}

async function runWave({ fireAtMs, posts, maxInFlight, state }: WaveCommand): Promise<void> {
  const flag = new Int32Array(state);
  // Everything but the writes is done ahead: each post's bytes, and a connection for each.
  const wave = new LineWave(posts);
  wave.open(Math.max(1, Math.min(maxInFlight, posts.length)));
  // Calibrated now, while the connections open, not in the last milliseconds.
  clock.errorMs();
  const ahead = fireAtMs - clock.now() - FINE_WAIT_MS;
  if (ahead > 0) await Bun.sleep(ahead);
  waitForInstant(fireAtMs, flag);
  // Exactly one side wins: the wave leaves here, or the main thread called it off first.
  if (Atomics.compareExchange(flag, 0, WAVE_ARMED, WAVE_FIRED) !== WAVE_ARMED) {
    wave.close();
    return report({ type: "cancelled" });
  }
  wave.sendAll(fireAtMs);
}

/** Blocks this thread until `fireAtMs` on the precise clock (never before it), or until the wave is called off. */
function waitForInstant(fireAtMs: number, flag: Int32Array): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    if (Atomics.load(flag, 0) !== WAVE_ARMED) return;
    const left = fireAtMs - clock.now();
    if (left <= 0) return;
    if (left > SPIN_MS) Atomics.wait(sleeper, 0, 0, Math.min(FINE_STEP_MS, left - SPIN_MS));
  }
}

/** The wave's posts on their connections: written at the instant, each answer read as it comes. */
class LineWave {
  private readonly encoded: EncodedRequest[];
  private readonly lines: Line[] = [];
  /** Posts not yet written, earliest-submitted first. */
  private readonly queue: number[];

  constructor(private readonly posts: WireRequest[]) {
    this.encoded = posts.map(encodeRequest);
    this.queue = posts.map((_, index) => index);
  }

  /** Opens `count` connections to the club (the posts' origin); one that fails stays closed. */
  open(count: number): void {
    const { hostname, port, isTls } = this.encoded[0];
    for (let i = 0; i < count; i++) {
      const line: Line = { socket: null, isOpen: false, current: null, unwritten: null };
      this.lines.push(line);
      Bun.connect<Line>({
        hostname,
        port,
        data: line,
        tls: isTls ? { serverName: hostname, rejectUnauthorized: true } : undefined,
        socket: {
          open: (socket) => {
            socket.setNoDelay(true);
            line.socket = socket;
            line.isOpen = true;
          },
          data: (_socket, chunk) => this.onData(line, chunk),
          drain: (socket) => {
            if (!line.unwritten) return;
            const written = socket.write(line.unwritten);
            line.unwritten = written < line.unwritten.byteLength ? line.unwritten.subarray(Math.max(0, written)) : null;
          },
          close: () => this.onClosed(line),
          error: () => this.onClosed(line),
        },
      }).catch(() => {
        // Not open at the instant: its post goes with fetch.
        line.isOpen = false;
      });
    }
  }

  close(): void {
    for (const line of this.lines) line.socket?.end();
  }

  /** At the instant: a post on every open connection, in order; as many again with fetch for those that did not open. */
  sendAll(fireAtMs: number): void {
    const wokeAt = clock.now();
    // The writes alone first, one after another: each post's reader and timer are made after the last has left.
    const written: { line: Line; index: number; sentMs: number; count: number }[] = [];
    for (const line of this.lines) {
      if (this.queue.length === 0) break;
      if (!line.isOpen || !line.socket) continue;
      const index = this.queue.shift()!;
      const count = line.socket.write(this.encoded[index].bytes);
      written.push({ line, index, sentMs: clock.now(), count });
    }
    const writing = { posts: written.length, wokeAfterMs: wokeAt - fireAtMs, writesMs: clock.now() - wokeAt };
    const sent: [number, number][] = written.map(({ line, index, sentMs, count }) => this.follow(line, index, sentMs, count));
    const unopened = this.lines.filter((line) => !line.isOpen).length;
    for (const index of this.queue.splice(0, unopened)) sent.push(this.sendWithFetch(index));
    // Posted before any answer can be: the main thread knows when a post left before what came back.
    if (sent.length > 0) report({ type: "sent", sent, writing });
  }

  /** Writes a post on its connection (a later post of the wave, on a connection an answer freed). */
  private write(line: Line, index: number): [number, number] {
    const count = line.socket!.write(this.encoded[index].bytes);
    return this.follow(line, index, clock.now(), count);
  }

  /** After a post's write: what the socket did not take yet, its answer's reader, its timeout. */
  private follow(line: Line, index: number, sentMs: number, count: number): [number, number] {
    const socket = line.socket!;
    const { bytes } = this.encoded[index];
    if (count < bytes.byteLength) line.unwritten = bytes.subarray(Math.max(0, count));
    const { timeoutMs } = this.posts[index];
    const timer = setTimeout(() => {
      line.current = null;
      fail(index, "TimeoutError", `The club did not answer within ${timeoutMs} ms.`);
      socket.terminate();
    }, timeoutMs);
    line.current = { index, reader: new AnswerReader(sentMs), timer };
    return [index, sentMs];
  }

  private sendWithFetch(index: number): [number, number] {
    const sentMs = clock.now();
    fetchWire(this.posts[index], clock.now).then(
      (answer) => report({ type: "answer", index, answer }),
      (error: unknown) => fail(index, error instanceof Error ? error.name : "Error", error instanceof Error ? error.message : String(error)),
    );
    return [index, sentMs];
  }

  private onData(line: Line, chunk: Uint8Array): void {
    const current = line.current;
    if (!current) return;
    let isComplete: boolean;
    try {
      isComplete = current.reader.push(chunk);
    } catch (error) {
      clearTimeout(current.timer);
      line.current = null;
      fail(current.index, "Error", error instanceof Error ? error.message : String(error));
      line.socket?.terminate();
      return;
    }
    if (!isComplete) return;
    clearTimeout(current.timer);
    line.current = null;
    report({ type: "answer", index: current.index, answer: current.reader.answer(clock.now()) });
    this.next(line, current.reader.isReusable);
  }

  private onClosed(line: Line): void {
    line.isOpen = false;
    const current = line.current;
    line.current = null;
    if (!current) return;
    clearTimeout(current.timer);
    // An answer sized by the connection's end is complete now; any other was cut short.
    if (current.reader.closed()) report({ type: "answer", index: current.index, answer: current.reader.answer(clock.now()) });
    else fail(current.index, "Error", "The club closed the connection before it answered.");
    this.next(line, false);
  }

  /** The next post waiting goes on this connection if it can carry one, else with fetch. */
  private next(line: Line, isReusable: boolean): void {
    const index = this.queue.shift();
    const canCarry = isReusable && line.isOpen && line.socket !== null;
    if (!canCarry || index === undefined) line.socket?.end();
    if (index === undefined) return;
    report({ type: "sent", sent: [canCarry ? this.write(line, index) : this.sendWithFetch(index)] });
  }
}

function fail(index: number, name: string, message: string): void {
  report({ type: "failed", index, name, message });
}
