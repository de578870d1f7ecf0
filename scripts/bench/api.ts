/**
 * API throughput: requests per second of GET /v1/tee-times for a signed-in member, as a ratio to a
 * bare Bun.serve answering the same bytes, side by side in one run, with wrk as the load generator
 * (C, one thread: faster than either server). Target: ratio ≥ 0.9.
 * The two are measured in alternating rounds, and the ratio of the medians is the figure, so a
 * passing hiccup of the machine does not decide it.
 *
 * Teebox is the single binary as deployed (dist/teebox, built first when it is missing), with its
 * runtime options (src/runtime-options.ts, decision 208). The figure is the ratio to a bare server on
 * Bun's defaults answering its bytes; two more bare servers are measured in the same rounds: one on
 * Teebox's options, so its ratio tells Teebox's own cost apart from what the options cost, and one
 * answering from a Blob made once, as Teebox's fast path does (decision 212), so its ratio tells
 * Teebox's cost apart from what the Blob saves.
 * Usage: bun scripts/bench/api.ts [seconds per round=5] [connections=50] [rounds=5]
 */
import { join } from "node:path";
import { RUNTIME_OPTIONS } from "../../src/runtime-options.ts";
import { builtBinary, freePort, signIn, startTeebox, waitFor } from "./support.ts";

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

const binary = builtBinary();
const teebox = await startTeebox({ command: [binary] });
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

  /** A bare server answering the same bytes, with `env` (Bun's defaults where it sets nothing). */
  const startBare = async (env: Record<string, string | undefined>, body: "bytes" | "blob" = "bytes") => {
    const port = await freePort();
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts"), String(port), body], { env, stdin: new Blob([bytes]), stdout: "ignore", stderr: "inherit" });
    await waitFor(`http://127.0.0.1:${port}/ready`);
    return { url: `http://127.0.0.1:${port}${path}`, proc };
  };
  const withoutRuntimeOptions = Object.fromEntries(Object.entries(process.env).filter(([name]) => !Object.hasOwn(RUNTIME_OPTIONS, name)));
  const bare = await startBare(withoutRuntimeOptions);
  const bareWithOptions = await startBare({ ...withoutRuntimeOptions, ...RUNTIME_OPTIONS });
  const bareFromBlob = await startBare(withoutRuntimeOptions, "blob");

  const bareRuns: number[] = [];
  const bareWithOptionsRuns: number[] = [];
  const bareFromBlobRuns: number[] = [];
  const teeboxRuns: number[] = [];
  for (let round = 0; round < rounds; round++) {
    bareRuns.push(runWrk(bare.url, null));
    teeboxRuns.push(runWrk(`${teebox.url}${path}`, cookie));
    bareWithOptionsRuns.push(runWrk(bareWithOptions.url, null));
    bareFromBlobRuns.push(runWrk(bareFromBlob.url, null));
  }
  for (const server of [bare, bareWithOptions, bareFromBlob]) server.proc.kill();
  const teeboxRps = median(teeboxRuns);
  const line = (name: string, runs: number[]) => console.log(`  ${name.padEnd(34)}: ${runs.map((r) => r.toFixed(0)).join(", ")} req/s (median ${median(runs).toFixed(0)})`);
  console.log(`GET /v1/tee-times from ${binary}: ${bytes.byteLength} bytes per answer, ${rounds} alternating rounds of ${seconds}s at ${connections} connections`);
  line("bare Bun.serve, Bun's defaults", bareRuns);
  line("bare Bun.serve, Teebox's options", bareWithOptionsRuns);
  line("bare Bun.serve, from a Blob", bareFromBlobRuns);
  line("Teebox", teeboxRuns);
  console.log(`  ratio to the bare server on Bun's defaults  : ${(teeboxRps / median(bareRuns)).toFixed(2)} (target ≥ 0.9)`);
  console.log(`  ratio to the bare server on Teebox's options: ${(teeboxRps / median(bareWithOptionsRuns)).toFixed(2)} (Teebox's own cost, the options aside)`);
  console.log(`  ratio to the bare server from a Blob        : ${(teeboxRps / median(bareFromBlobRuns)).toFixed(2)} (Teebox's own cost, the Blob aside; target ≥ 0.9 too)`);
} finally {
  await teebox.stop();
}
