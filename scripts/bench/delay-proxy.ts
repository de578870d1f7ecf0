/**
 * A club across the internet, on loopback: a TCP proxy that holds every chunk it forwards for a
 * one-way delay drawn afresh for each chunk (15 ms ± 5 ms by default), in each direction, never
 * reordering a connection's bytes. The kernel here has no netem, so the release benchmark puts
 * this in front of the demo club for its distant-club case. It is also the club's front door: each
 * request it delivers carries the moment it did (`X-Request-Start`), which the club logs as arrival.
 * A new connection also pays for its TCP handshake: bytes the client sends within a round trip of
 * connecting wait until it is over (a connection opened ahead of time has paid it already, as on a
 * real network).
 *
 * It runs in a process of its own, so its timers are not held up by the club's or Teebox's work.
 * Prints `{"port": n}` once listening.
 *
 *   bun scripts/bench/delay-proxy.ts '{"targetPort": 4000, "delayMs": 15, "jitterMs": 5, "seed": 1}'
 */
import type { Socket } from "bun";
import { REQUEST_START_HEADER, requestStartValue } from "../../src/club-sim/arrival.ts";

export interface DelayProxyOptions {
  targetPort: number;
  /** Mean one-way delay, each direction. */
  delayMs: number;
  /** Each chunk's delay is drawn uniformly from delayMs ± jitterMs. */
  jitterMs: number;
  seed: number;
}

/** One direction of one connection: what waits to be written, in order, each no sooner than its moment. */
interface Lane {
  /** Chunks not yet written, with the moment each may go (never before the one ahead of it). */
  queue: { at: number; bytes: Uint8Array }[];
  lastAt: number;
  timer: Timer | null;
  /** Bytes the socket would not take yet (backpressure), written on drain before anything else. */
  pending: Uint8Array | null;
  /** The far side closed: close this side once everything queued is written. */
  isEnding: boolean;
}

interface Pair {
  client: Socket<Pair> | null;
  club: Socket<Pair> | null;
  /** When the emulated handshake is over: the client's bytes cannot set off before it. */
  establishedAt: number;
  /** Towards the club, and back towards the client. */
  up: Lane;
  down: Lane;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A request delivered to the club now, stamped at the club's front door with the moment it came in
 * (`X-Request-Start`, src/club-sim/arrival.ts): the club logs that as its arrival, and the time it
 * then waited behind the club's own work apart. Only a chunk that begins with a whole request line
 * is stamped; any other is passed on as it is.
 */
function stampedAtDoor(bytes: Uint8Array): Uint8Array {
  const line = REQUEST_LINE.exec(decoder.decode(bytes.subarray(0, 2048)));
  if (!line) return bytes;
  // The request line matched is ASCII: as many bytes as characters.
  const at = line[0].length;
  const header = encoder.encode(`${REQUEST_START_HEADER}: ${requestStartValue()}\r\n`);
  const stamped = new Uint8Array(bytes.byteLength + header.byteLength);
  stamped.set(bytes.subarray(0, at));
  stamped.set(header, at);
  stamped.set(bytes.subarray(at), at + header.byteLength);
  return stamped;
}

const newLane = (): Lane => ({ queue: [], lastAt: 0, timer: null, pending: null, isEnding: false });

export function startDelayProxy(options: DelayProxyOptions): { port: number; stop(): void } {
  let state = options.seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic under the seed, cheap enough for every chunk.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  const draw = () => options.delayMs - options.jitterMs + 2 * options.jitterMs * random();

  const target = (pair: Pair, lane: Lane) => (lane === pair.up ? pair.club : pair.client);

  function flush(pair: Pair, lane: Lane): void {
    lane.timer = null;
    const socket = target(pair, lane);
    if (!socket) return;
    const now = performance.now();
    while (lane.pending === null && lane.queue.length > 0 && lane.queue[0].at <= now) {
      const queued = lane.queue.shift()!.bytes;
      const bytes = lane === pair.up ? stampedAtDoor(queued) : queued;
      const written = socket.write(bytes);
      if (written < bytes.byteLength) lane.pending = bytes.subarray(Math.max(0, written));
    }
    if (lane.pending === null && lane.queue.length === 0 && lane.isEnding) socket.end();
    else if (lane.pending === null && lane.queue.length > 0) schedule(pair, lane);
  }

  function schedule(pair: Pair, lane: Lane): void {
    if (lane.timer || lane.queue.length === 0) return;
    lane.timer = setTimeout(() => flush(pair, lane), Math.max(0, lane.queue[0].at - performance.now()));
  }

  /** Queues bytes for a lane: they set off now (or once the handshake is over) and travel one delay. */
  function enqueue(pair: Pair, lane: Lane, bytes: Uint8Array, notBefore = 0): void {
    const at = Math.max(lane.lastAt, Math.max(performance.now(), notBefore) + draw());
    lane.lastAt = at;
    // The socket's buffer is reused by Bun after the handler returns: keep a copy.
    lane.queue.push({ at, bytes: new Uint8Array(bytes) });
    schedule(pair, lane);
  }

  function drain(pair: Pair, lane: Lane): void {
    const socket = target(pair, lane);
    if (!socket || lane.pending === null) return;
    const written = socket.write(lane.pending);
    lane.pending = written < lane.pending.byteLength ? lane.pending.subarray(Math.max(0, written)) : null;
    if (lane.pending === null) flush(pair, lane);
  }

  function endLane(pair: Pair, lane: Lane): void {
    lane.isEnding = true;
    // Closing travels like data: the far side learns of it after the same delay.
    const at = Math.max(lane.lastAt, performance.now() + draw());
    lane.lastAt = at;
    setTimeout(
      () => {
        if (lane.pending === null && lane.queue.length === 0) target(pair, lane)?.end();
      },
      Math.max(0, at - performance.now()),
    );
  }

  const listener = Bun.listen<Pair>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        // SYN to the club and SYN-ACK back: the client may send once both have travelled.
        const pair: Pair = { client, club: null, establishedAt: performance.now() + draw() + draw(), up: newLane(), down: newLane() };
        client.data = pair;
        client.setNoDelay(true);
        void Bun.connect<Pair>({
          hostname: "127.0.0.1",
          port: options.targetPort,
          data: pair,
          socket: {
            open(club) {
              club.setNoDelay(true);
              pair.club = club;
              flush(pair, pair.up);
            },
            data(club, bytes) {
              enqueue(club.data, club.data.down, bytes);
            },
            drain(club) {
              drain(club.data, club.data.up);
            },
            close(club) {
              endLane(club.data, club.data.down);
            },
            error(club) {
              club.data.client?.end();
            },
          },
        }).catch(() => client.end());
      },
      data(client, bytes) {
        enqueue(client.data, client.data.up, bytes, client.data.establishedAt);
      },
      drain(client) {
        drain(client.data, client.data.down);
      },
      close(client) {
        endLane(client.data, client.data.up);
      },
      error(client) {
        client.data.club?.end();
      },
    },
  });
  return { port: listener.port, stop: () => listener.stop(true) };
}

if (import.meta.main) {
  const options = JSON.parse(process.argv[2] ?? "{}") as DelayProxyOptions;
  const proxy = startDelayProxy(options);
  console.log(JSON.stringify({ port: proxy.port }));
  process.on("SIGTERM", () => {
    proxy.stop();
    process.exit(0);
  });
}
