/**
 * Socket fan-out: one `status: updated` reaching 1,000 connected members. Teebox runs as a child
 * process (demo mode); this process creates enough members (a member may hold at most
 * SOCKET_MAX_PER_USER sockets), signs them in, opens the sockets (every socket is subscribed to the
 * all-members topic and to its user's own topic, so a broadcast reaches each socket once), then
 * posts a front-page message as the admin
 * (which publishes `status: updated` to everyone) and times each socket's receipt. Repeated
 * `rounds` times.
 *
 * Latency is measured from just before the admin call is sent, so it includes the call's own work
 * (store, audit) before the server publishes: an upper bound of the fan-out delay. The figure from
 * the call's answer is printed too (the server publishes just before answering, so it can be
 * slightly negative). Receipt times also carry this process's own event-loop work for 1,000
 * sockets. Target: p99 ≤ 10 ms at 1,000 sockets, ≤ 25 ms at 5,000.
 *
 * Each socket is a file descriptor on both sides: 1,000 sockets need a limit above ~1,100 in this
 * shell (`ulimit -n 4096` first if `ulimit -n` says 1024).
 *
 *   bun scripts/bench/fanout.ts [sockets=1000] [rounds=20]
 */
import { SOCKET_MAX_PER_USER } from "../../src/lib/limits.ts";
import { BENCH_ADMIN_PASSWORD, percentile, rssMb, signIn, startTeebox } from "./support.ts";

const SOCKETS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 20);
const MEMBER_COUNT = Math.ceil(SOCKETS / SOCKET_MAX_PER_USER);
const MEMBER_PASSWORD = "fanout-bench-password";
const OPEN_BATCH = 50;
const ROUND_TIMEOUT_MS = 10_000;

/** Bun's WebSocket sends headers (the session cookie, our Origin); the DOM typing of its constructor does not know them. */
const HeaderedWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

interface Receiver {
  socket: WebSocket;
  /** Receipt time of the awaited broadcast in the current round, if it came. */
  receivedAt: number | null;
}

function openSocket(wsUrl: string, origin: string, cookie: string): Promise<Receiver> {
  return new Promise((resolve, reject) => {
    const socket = new HeaderedWebSocket(wsUrl, { headers: { cookie, origin } });
    const receiver: Receiver = { socket, receivedAt: null };
    socket.onopen = () => resolve(receiver);
    socket.onerror = () => reject(new Error("a socket failed to open"));
    socket.onmessage = (event) => {
      const at = performance.now();
      if (receiver.receivedAt !== null) return;
      const message = JSON.parse(String(event.data)) as { type?: string; status?: string };
      if (message.type === "status" && message.status === "updated") receiver.receivedAt = at;
    };
  });
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(2);
  }
  return true;
}

function fdLimit(): string {
  const out = Bun.spawnSync(["sh", "-c", "ulimit -n"]).stdout.toString().trim();
  return out || "unknown";
}

const teebox = await startTeebox();
const receivers: Receiver[] = [];
try {
  const origin = teebox.url;
  const wsUrl = `${teebox.url.replace(/^http/, "ws")}/v1/ws`;
  const adminCookie = await signIn(teebox.url, "admin", BENCH_ADMIN_PASSWORD);
  const usernames = Array.from({ length: MEMBER_COUNT }, (_, i) => `fanout${String(i).padStart(3, "0")}`);
  for (const username of usernames) {
    const created = await fetch(`${teebox.url}/v1/admin/users`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie: adminCookie },
      body: JSON.stringify({ username, password: MEMBER_PASSWORD, role: "user", status: "active" }),
    });
    if (!created.ok) throw new Error(`creating ${username} failed: ${created.status} ${await created.text()}`);
  }
  // Sockets only listen here, so members need no profile (or a password of their own) first.
  const cookies = await Promise.all(usernames.map((username) => signIn(teebox.url, username, MEMBER_PASSWORD)));

  // The start-up scrape ends with its own `status: updated`; let it pass before measuring.
  for (let i = 0; i < 200; i++) {
    const body = (await (await fetch(`${teebox.url}/v1/tee-times`, { headers: { cookie: adminCookie } })).json()) as { lastScrapeTime: number | null };
    if (body.lastScrapeTime) break;
    await Bun.sleep(100);
  }

  const openStarted = performance.now();
  for (let i = 0; i < SOCKETS; i += OPEN_BATCH) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, SOCKETS - i) }, (_, j) => openSocket(wsUrl, origin, cookies[(i + j) % cookies.length]));
    receivers.push(...(await Promise.all(batch)));
  }
  const openMs = performance.now() - openStarted;
  console.log(`${receivers.length} sockets open in ${openMs.toFixed(0)} ms over ${MEMBER_COUNT} members (file-descriptor limit here: ${fdLimit()}); Teebox RSS ${(await rssMb(teebox.proc.pid)).toFixed(1)} MB`);
  await Bun.sleep(500);

  const fromSend: number[] = [];
  const fromAnswer: number[] = [];
  const callMs: number[] = [];
  const roundP99: number[] = [];
  let missing = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const r of receivers) r.receivedAt = null;
    const sentAt = performance.now();
    const res = await fetch(`${teebox.url}/v1/admin/frontpage-messages`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie: adminCookie },
      body: JSON.stringify({ title: `Fan-out round ${round}`, content: "A message for every member.", is_active: true }),
    });
    const answeredAt = performance.now();
    if (!res.ok) throw new Error(`the admin call failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    callMs.push(answeredAt - sentAt);
    const isComplete = await waitUntil(() => receivers.every((r) => r.receivedAt !== null), ROUND_TIMEOUT_MS);
    const times: number[] = [];
    for (const r of receivers) {
      if (r.receivedAt === null) continue;
      fromSend.push(r.receivedAt - sentAt);
      fromAnswer.push(r.receivedAt - answeredAt);
      times.push(r.receivedAt - sentAt);
    }
    if (!isComplete) missing += receivers.filter((r) => r.receivedAt === null).length;
    times.sort((a, b) => a - b);
    roundP99.push(percentile(times, 99));
    await Bun.sleep(200);
  }

  const sortedSend = [...fromSend].sort((a, b) => a - b);
  const sortedAnswer = [...fromAnswer].sort((a, b) => a - b);
  const sortedCall = [...callMs].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  console.log(`${ROUNDS} broadcasts × ${receivers.length} sockets = ${fromSend.length} deliveries; missing: ${missing}`);
  console.log(`delivery after the admin call was sent:    p50 ${f(percentile(sortedSend, 50))} ms, p99 ${f(percentile(sortedSend, 99))} ms, max ${f(sortedSend.at(-1) ?? NaN)} ms (target p99 ≤ ${SOCKETS > 1000 ? 25 : 10} ms)`);
  console.log(`delivery after the admin call's answer:    p50 ${f(percentile(sortedAnswer, 50))} ms, p99 ${f(percentile(sortedAnswer, 99))} ms, max ${f(sortedAnswer.at(-1) ?? NaN)} ms`);
  console.log(`the admin call itself (POST frontpage-messages): p50 ${f(percentile(sortedCall, 50))} ms, p99 ${f(percentile(sortedCall, 99))} ms, max ${f(sortedCall.at(-1) ?? NaN)} ms`);
  console.log(`per-round p99 (from send): ${roundP99.map(f).join(", ")} ms`);
  console.log(`Teebox RSS after: ${(await rssMb(teebox.proc.pid)).toFixed(1)} MB`);
} finally {
  for (const r of receivers) r.socket.close();
  await teebox.stop();
}
