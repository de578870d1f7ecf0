/**
 * API throughput: requests per second of GET /v1/tee-times for a signed-in member, as a ratio to a
 * bare Bun.serve answering the same bytes, side by side in one run, with wrk as the load generator
 * (C, one thread: faster than either server). Target: ratio ≥ 0.6.
 * Usage: bun scripts/bench/api.ts [seconds=10] [connections=50]
 */
import { join } from "node:path";
import { freePort, signIn, startTeebox, waitFor } from "./support.ts";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);

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
  const bare = Bun.spawn(["bun", bareScript, String(barePort)], { stdin: new Blob([bytes]), stdout: "ignore", stderr: "inherit" });
  await waitFor(`http://127.0.0.1:${barePort}/ready`);

  const bareRps = runWrk(`http://127.0.0.1:${barePort}${path}`, null);
  const teeboxRps = runWrk(`${teebox.url}${path}`, cookie);
  bare.kill();
  console.log(`GET /v1/tee-times: ${bytes.byteLength} bytes per answer, ${seconds}s at ${connections} connections`);
  console.log(`  bare Bun.serve : ${bareRps.toFixed(0)} req/s`);
  console.log(`  Teebox         : ${teeboxRps.toFixed(0)} req/s`);
  console.log(`  ratio          : ${(teeboxRps / bareRps).toFixed(2)} (target ≥ 0.6)`);
} finally {
  await teebox.stop();
}
