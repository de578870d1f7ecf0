/**
 * API throughput: requests per second of GET /v1/tee-times for a signed-in member, as a ratio to a
 * bare Bun.serve answering the same bytes, side by side in one run, with wrk as the load generator
 * (C, one thread: faster than either server). Target: ratio ≥ 0.9.
 * The two are measured in alternating rounds, and the ratio of the medians is the figure, so a
 * passing hiccup of the machine does not decide it.
 * Usage: bun scripts/bench/api.ts [seconds per round=5] [connections=50] [rounds=5]
 */
import { join } from "node:path";
import { freePort, signIn, startTeebox, waitFor } from "./support.ts";

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 50);
const rounds = Number(process.argv[4] ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!Bun.which("wrk")) {
  console.error("This benchmark needs wrk (apt-get install -y wrk).");
  process.exit(1);
}

function runWrk(url: string, cookie: string | null): number {
  const args = ["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency"];
  if (cookie) args.push("-H", `Cookie: ${cookie}`);
  const out = Bun.spawnSync([...args, url]).stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  if (errors) console.log(`  (${errors} non-2xx answers from ${url})`);
  return rps;
}

const teebox = await startTeebox();
try {
  const cookie = await signIn(teebox.url, "maria", "demo1234");
  // Let the start-up scrape fill the tee sheet so the answer has its real size.
  for (let i = 0; i < 100; i++) {
    const body = await (await fetch(`${teebox.url}/v1/tee-times`, { headers: { cookie } })).json();
    if (body.lastScrapeTime) break;
    await Bun.sleep(100);
  }
  const path = "/v1/tee-times?_=1";
  const bytes = await (await fetch(`${teebox.url}${path}`, { headers: { cookie } })).arrayBuffer();

  const barePort = await freePort();
  const bareScript = join(import.meta.dir, "bare-server.ts");
  const bare = Bun.spawn([process.execPath, bareScript, String(barePort)], { stdin: new Blob([bytes]), stdout: "ignore", stderr: "inherit" });
  await waitFor(`http://127.0.0.1:${barePort}/ready`);

  const bareRuns: number[] = [];
  const teeboxRuns: number[] = [];
  for (let round = 0; round < rounds; round++) {
    bareRuns.push(runWrk(`http://127.0.0.1:${barePort}${path}`, null));
    teeboxRuns.push(runWrk(`${teebox.url}${path}`, cookie));
  }
  bare.kill();
  const bareRps = median(bareRuns);
  const teeboxRps = median(teeboxRuns);
  console.log(`GET /v1/tee-times: ${bytes.byteLength} bytes per answer, ${rounds} alternating rounds of ${seconds}s at ${connections} connections`);
  console.log(`  bare Bun.serve : ${bareRuns.map((r) => r.toFixed(0)).join(", ")} req/s (median ${bareRps.toFixed(0)})`);
  console.log(`  Teebox         : ${teeboxRuns.map((r) => r.toFixed(0)).join(", ")} req/s (median ${teeboxRps.toFixed(0)})`);
  console.log(`  ratio          : ${(teeboxRps / bareRps).toFixed(2)} (target ≥ 0.9)`);
} finally {
  await teebox.stop();
}
