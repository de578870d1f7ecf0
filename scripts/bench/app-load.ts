/**
 * Members using the app while a release fires, in a process of their own (as browsers are): a
 * number of open sockets (spread over the members, within the per-member cap; each member with one
 * loaded the app's data as it opened) and a number of members who refresh in the same second
 * around the instant, each refresh being the reads the app makes on a full reload. Prints one JSON
 * line: reads made, answered, failed, latency figures.
 *
 *   bun scripts/bench/app-load.ts < setup.json   (an AppLoadSetup)
 */
import { SOCKET_MAX_PER_USER } from "../../src/lib/limits.ts";
import { percentile, readJsonInput, sleepUntilHost } from "./release-support.ts";

export interface AppLoadSetup {
  url: string;
  /** One session cookie per member ("name=value"). */
  cookies: string[];
  sockets: number;
  refreshers: number;
  /** The release instant on this host's clock: refreshes start within the second around it. */
  instantHostMs: number;
}

export interface AppLoadReport {
  socketsOpen: number;
  reads: number;
  answered: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The reads by when their reload started, a quarter of a second each, from half a second before the instant. */
  byStart: { fromMs: number; reads: number; p50Ms: number; p99Ms: number }[];
}

/** Where a reload's reads are counted in `byStart`. */
const QUARTER_MS = 250;

/** The reads of a full reload of the app (web/lib/live-data-store.ts and the session check). */
const RELOAD_READS = [
  "/v1/auth/status",
  "/v1/tee-times?_=",
  "/v1/system/dates",
  "/v1/system/rules",
  "/v1/advisories?_=",
  "/v1/my/bookings?_=",
  "/v1/my/requests?_=",
  "/v1/my/players?_=",
];

/** Bun's WebSocket sends headers (the session cookie, our Origin); the DOM typing does not know them. */
const HeaderedWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

function openSocket(url: string, cookie: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new HeaderedWebSocket(`${url.replace(/^http/, "ws")}/v1/ws`, { headers: { cookie, origin: url } });
    socket.onopen = () => resolve(socket);
    socket.onerror = () => reject(new Error("a socket failed to open"));
  });
}

async function refresh(setup: AppLoadSetup, cookie: string, latencies: number[], byStart?: Map<number, number[]>): Promise<number> {
  const quarter = Math.floor((Date.now() - setup.instantHostMs) / QUARTER_MS) * QUARTER_MS;
  let failed = 0;
  await Promise.all(
    RELOAD_READS.map(async (path) => {
      const started = performance.now();
      try {
        const response = await fetch(`${setup.url}${path.endsWith("=") ? `${path}${Date.now()}` : path}`, { headers: { cookie } });
        await response.arrayBuffer();
        if (!response.ok) {
          failed++;
          return;
        }
        const ms = performance.now() - started;
        latencies.push(ms);
        if (!byStart) return;
        const inQuarter = byStart.get(quarter) ?? [];
        inQuarter.push(ms);
        byStart.set(quarter, inQuarter);
      } catch {
        failed++;
      }
    }),
  );
  return failed;
}

export async function runAppLoad(setup: AppLoadSetup): Promise<AppLoadReport> {
  const perMember = Math.min(SOCKET_MAX_PER_USER, Math.ceil(setup.sockets / setup.cookies.length));
  const socketCount = Math.min(setup.sockets, perMember * setup.cookies.length);
  // An app that is open has loaded its data: each member with a socket made a full reload's reads
  // when it opened, as a browser does, long before the instant (not timed). Without them the
  // instant was the first time the server ever ran those reads.
  const opened = setup.cookies.slice(0, Math.min(setup.cookies.length, socketCount));
  await Promise.all(opened.map((cookie) => refresh(setup, cookie, [])));
  const sockets = await Promise.all(Array.from({ length: socketCount }, (_, i) => openSocket(setup.url, setup.cookies[i % setup.cookies.length])));
  const latencies: number[] = [];
  const byStart = new Map<number, number[]>();
  let failed = 0;
  // Each refresher starts at its own moment within the second around the instant.
  const start = setup.instantHostMs - 500;
  await Promise.all(
    Array.from({ length: setup.refreshers }, async (_, i) => {
      await sleepUntilHost(start + Math.round((i * 1000) / setup.refreshers));
      failed += await refresh(setup, setup.cookies[i % setup.cookies.length], latencies, byStart);
    }),
  );
  for (const socket of sockets) socket.close();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    socketsOpen: sockets.length,
    reads: setup.refreshers * RELOAD_READS.length,
    answered: sorted.length,
    failed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    byStart: [...byStart]
      .sort(([a], [b]) => a - b)
      .map(([fromMs, ms]) => {
        const inOrder = ms.sort((a, b) => a - b);
        return { fromMs, reads: inOrder.length, p50Ms: percentile(inOrder, 50), p99Ms: percentile(inOrder, 99) };
      }),
  };
}

if (import.meta.main) {
  console.log(JSON.stringify(await runAppLoad(await readJsonInput<AppLoadSetup>())));
  process.exit(0);
}
