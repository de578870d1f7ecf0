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
 * slightly negative). The sockets are held by two receiving threads (fanout-receiver.ts) whose
 * message handlers only note the time, so a receipt time carries as little as can be of this
 * process's own turn through a thousand handlers. Target: p99 ≤ 10 ms at 1,000 sockets, ≤ 25 ms at 5,000.
 *
 * The same receivers are first measured against a bare Bun.serve publishing the same text to one
 * topic (fanout-bare-server.ts), side by side in one run: what reaching them takes on this machine,
 * whatever the server, so Teebox's own share of the delay shows beside it.
 *
 * Each side's CPU per broadcast is printed too (the server's, with its kernel share, and this
 * process's receiving threads'): both share this machine's cores, so when their sum spread evenly
 * over the cores exceeds the target, no server could meet it here. Over loopback the kernel runs
 * each frame's receipt (TCP's receive path) inside the sender's write, so the server's kernel time
 * also holds work a real network would leave to the members' devices.
 *
 * Each socket is a file descriptor on both sides: 1,000 sockets need a limit above ~1,100 in this
 * shell (`ulimit -n 4096` first if `ulimit -n` says 1024).
 *
 *   bun scripts/bench/fanout.ts [sockets=1000] [rounds=20]
 */
import { SOCKET_MAX_PER_USER } from "../../src/lib/limits.ts";
import type { ReceiverCommand, ReceiverReport } from "./fanout-receiver.ts";
import { join } from "node:path";
import { cpuSplitMs, threadCpu, usedBetween } from "./soak/processes.ts";
import { BENCH_ADMIN_PASSWORD, freePort, percentile, rssMb, signIn, startTeebox, waitFor } from "./support.ts";

const SOCKETS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 20);
const MEMBER_COUNT = Math.ceil(SOCKETS / SOCKET_MAX_PER_USER);
const MEMBER_PASSWORD = "fanout-bench-password";
const OPEN_BATCH = 50;
const ROUND_TIMEOUT_MS = 10_000;

/** Receiver threads: a thousand browsers' sockets on one thread would count that thread's turns as the server's. */
const RECEIVER_THREADS = 2;

/** A receiver thread, and its next report of a kind. */
function startReceiver() {
  const worker = new Worker(new URL("./fanout-receiver.ts", import.meta.url).href);
  const next = <K extends ReceiverReport["type"]>(type: K) =>
    new Promise<Extract<ReceiverReport, { type: K }>>((resolve) => {
      const onMessage = (event: MessageEvent<ReceiverReport>) => {
        if (event.data.type !== type) return;
        worker.removeEventListener("message", onMessage);
        resolve(event.data as Extract<ReceiverReport, { type: K }>);
      };
      worker.addEventListener("message", onMessage);
    });
  const send = (command: ReceiverCommand) => worker.postMessage(command);
  return { worker, next, send };
}

function fdLimit(): string {
  const out = Bun.spawnSync(["sh", "-c", "ulimit -n"]).stdout.toString().trim();
  return out || "unknown";
}

/** A server the receivers listen to: where to connect, and the call that makes it broadcast. */
interface Target {
  name: string;
  wsUrl: string;
  origin: string;
  pid: number;
  /** One session cookie per socket. */
  cookies: string[];
  broadcast(round: number): Promise<Response>;
  stop(): Promise<void>;
}

async function startBare(): Promise<Target> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "fanout-bare-server.ts"), String(port)], { stdout: "ignore", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url);
  return {
    name: "bare Bun.serve",
    wsUrl: url.replace(/^http/, "ws"),
    origin: url,
    pid: proc.pid,
    cookies: Array.from({ length: SOCKETS }, () => ""),
    broadcast: () => fetch(`${url}/publish`, { method: "POST" }),
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Teebox in demo mode, its members made and signed in; a broadcast is an admin's front-page message. */
async function startTeeboxTarget(): Promise<Target> {
  const teebox = await startTeebox();
  const origin = teebox.url;
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
  // In batches: a sign-in counts as a failure of its address until its hash is checked, so more than
  // 100 at once from one address are refused (docs/limits.md), as they would be from a real office.
  const cookies: string[] = [];
  for (let i = 0; i < usernames.length; i += 50) cookies.push(...(await Promise.all(usernames.slice(i, i + 50).map((username) => signIn(teebox.url, username, MEMBER_PASSWORD)))));

  // The start-up scrape ends with its own `status: updated`; let it pass before measuring.
  for (let i = 0; i < 200; i++) {
    const body = (await (await fetch(`${teebox.url}/v1/tee-times`, { headers: { cookie: adminCookie } })).json()) as { lastScrapeTime: number | null };
    if (body.lastScrapeTime) break;
    await Bun.sleep(100);
  }
  return {
    name: "Teebox",
    wsUrl: `${teebox.url.replace(/^http/, "ws")}/v1/ws`,
    origin,
    pid: teebox.proc.pid,
    cookies: Array.from({ length: SOCKETS }, (_, i) => cookies[i % cookies.length]),
    broadcast: (round) =>
      fetch(`${teebox.url}/v1/admin/frontpage-messages`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, cookie: adminCookie },
        body: JSON.stringify({ title: `Fan-out round ${round}`, content: "A message for every member.", is_active: true }),
      }),
    stop: teebox.stop,
  };
}

/** Opens the sockets on fresh receiving threads, broadcasts ROUNDS times, prints the figures; returns the p99 from send. */
async function measure(target: Target): Promise<number> {
  const threads = Array.from({ length: RECEIVER_THREADS }, startReceiver);
  try {
    const openStarted = performance.now();
    // Each thread opens its share of the sockets, a member's sockets spread over the threads.
    const opened = threads.map((t) => t.next("opened"));
    for (const [k, t] of threads.entries()) {
      t.send({ type: "open", wsUrl: target.wsUrl, origin: target.origin, batch: OPEN_BATCH, cookies: target.cookies.filter((_, i) => i % threads.length === k) });
    }
    const socketCount = (await Promise.all(opened)).reduce((sum, r) => sum + r.count, 0);
    const openMs = performance.now() - openStarted;
    console.log(`\n${target.name}: ${socketCount} sockets open in ${openMs.toFixed(0)} ms on ${threads.length} receiving threads; RSS ${(await rssMb(target.pid)).toFixed(1)} MB`);
    await Bun.sleep(500);

    const fromSend: number[] = [];
    const fromAnswer: number[] = [];
    const callMs: number[] = [];
    const roundP99: number[] = [];
    let missing = 0;
    const wallNow = () => performance.timeOrigin + performance.now();
    const cpuBefore = await cpuReading(target.pid);
    for (let round = 1; round <= ROUNDS; round++) {
      const armed = threads.map((t) => t.next("armed"));
      const received = threads.map((t) => t.next("received"));
      for (const t of threads) t.send({ type: "arm", round, timeoutMs: ROUND_TIMEOUT_MS });
      await Promise.all(armed);
      const sentAt = wallNow();
      const res = await target.broadcast(round);
      const answeredAt = wallNow();
      if (!res.ok) throw new Error(`the broadcast call failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      callMs.push(answeredAt - sentAt);
      const times: number[] = [];
      for (const report of await Promise.all(received)) {
        missing += report.missing;
        for (const at of report.times) {
          fromSend.push(at - sentAt);
          fromAnswer.push(at - answeredAt);
          times.push(at - sentAt);
        }
      }
      times.sort((a, b) => a - b);
      roundP99.push(percentile(times, 99));
      await Bun.sleep(200);
    }

    const cpu = cpuPerBroadcast(cpuBefore, await cpuReading(target.pid), ROUNDS);
    const sortedSend = [...fromSend].sort((a, b) => a - b);
    const sortedAnswer = [...fromAnswer].sort((a, b) => a - b);
    const sortedCall = [...callMs].sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log(`${ROUNDS} broadcasts × ${socketCount} sockets = ${fromSend.length} deliveries; missing: ${missing}`);
    console.log(`delivery after the call was sent:    p50 ${f(percentile(sortedSend, 50))} ms, p99 ${f(percentile(sortedSend, 99))} ms, max ${f(sortedSend.at(-1) ?? NaN)} ms`);
    console.log(
      `delivery after the call's answer:    p50 ${f(percentile(sortedAnswer, 50))} ms, p99 ${f(percentile(sortedAnswer, 99))} ms, max ${f(sortedAnswer.at(-1) ?? NaN)} ms`,
    );
    console.log(`the call itself: p50 ${f(percentile(sortedCall, 50))} ms, p99 ${f(percentile(sortedCall, 99))} ms, max ${f(sortedCall.at(-1) ?? NaN)} ms`);
    console.log(
      `CPU per broadcast: the server ${f(cpu.serverMs)} ms (${cpu.serverKernelShare.toFixed(0)}% of it in the kernel), the receivers ${f(cpu.receiversMs)} ms; ${f(cpu.serverMs + cpu.receiversMs)} ms on ${navigator.hardwareConcurrency} cores`,
    );
    console.log(`per-round p99 (from send): ${roundP99.map(f).join(", ")} ms`);
    console.log(`RSS after: ${(await rssMb(target.pid)).toFixed(1)} MB`);
    return percentile(sortedSend, 99);
  } finally {
    for (const t of threads) {
      t.send({ type: "close" });
      t.worker.terminate();
    }
  }
}

/** The server's and the receivers' (this process's) CPU so far: each thread's, and the server's split. */
async function cpuReading(serverPid: number) {
  return { server: await threadCpu(serverPid), serverSplit: await cpuSplitMs(serverPid), receivers: await threadCpu(process.pid) };
}

/**
 * What one broadcast costs the machine's cores, the rounds' pauses included (both sides rest then):
 * with the server's and the receivers' work together over the cores, the last socket cannot be
 * reached sooner than that work spread evenly over them.
 */
function cpuPerBroadcast(before: Awaited<ReturnType<typeof cpuReading>>, after: Awaited<ReturnType<typeof cpuReading>>, rounds: number) {
  const serverMs = usedBetween(before.server, after.server) / rounds;
  const kernelMs = after.serverSplit.systemMs - before.serverSplit.systemMs;
  const splitMs = kernelMs + after.serverSplit.userMs - before.serverSplit.userMs;
  return { serverMs, serverKernelShare: splitMs > 0 ? (kernelMs / splitMs) * 100 : 0, receiversMs: usedBetween(before.receivers, after.receivers) / rounds };
}

console.log(`${SOCKETS} sockets, ${ROUNDS} rounds (file-descriptor limit here: ${fdLimit()})`);
const bare = await startBare();
const bareP99 = await measure(bare).finally(() => bare.stop());
const teebox = await startTeeboxTarget();
const teeboxP99 = await measure(teebox).finally(() => teebox.stop());
const target = SOCKETS > 1000 ? 25 : 10;
console.log(
  `\nfan-out p99 from send: Teebox ${teeboxP99.toFixed(1)} ms (target ≤ ${target} ms), bare Bun.serve to the same receivers ${bareP99.toFixed(1)} ms; Teebox's own share ${(teeboxP99 - bareP99).toFixed(1)} ms`,
);
