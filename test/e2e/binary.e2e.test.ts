/**
 * The single binary: built, copied alone into an empty folder, started with nothing but a port, it
 * creates its data folder, migrates, seeds and serves the app and the demo club; its subcommands
 * answer. (The build writes the ignored dist/ folder; the binary runs from a temporary copy.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUNTIME_OPTIONS } from "../../src/runtime-options.ts";
import { findFreePort } from "./harness.ts";

const ROOT = join(import.meta.dir, "..", "..");
let binary: string;
let folder: string;

beforeAll(() => {
  const build = Bun.spawnSync([process.execPath, "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  folder = mkdtempSync(join(tmpdir(), "teebox-binary-"));
  binary = join(folder, "teebox");
  copyFileSync(join(ROOT, "dist", "teebox"), binary);
}, 120_000);

const run = (...args: string[]) => Bun.spawnSync([binary, ...args], { cwd: folder, env: { PATH: process.env.PATH ?? "" } });

test("--version and --help answer without starting anything", () => {
  const version = run("--version");
  expect(version.exitCode).toBe(0);
  expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  const help = run("--help");
  expect(help.stdout.toString()).toContain("teebox backup <file>");
  expect(run("no-such-command").exitCode).toBe(2);
});

let server: ReturnType<typeof Bun.spawn> | null = null;
afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
});

test("alone in an empty folder it serves the app and the demo club; backup works while it runs", async () => {
  const port = await findFreePort();
  server = Bun.spawn([binary], { cwd: folder, env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1" }, stdout: "pipe", stderr: "pipe" });
  const url = `http://127.0.0.1:${port}`;
  let health: Response | null = null;
  for (let i = 0; i < 200 && !health; i++) {
    health = await fetch(`${url}/healthz`).catch(() => null);
    if (!health) await Bun.sleep(25);
  }
  expect(health?.status).toBe(200);
  // It started itself again in place with its runtime options (decision 208): same process, options set.
  if (process.platform === "linux") {
    const environment = readFileSync(`/proc/${server.pid}/environ`, "utf8").split("\0");
    for (const [name, value] of Object.entries(RUNTIME_OPTIONS)) expect(environment).toContain(`${name}=${value}`);
  }
  expect(existsSync(join(folder, "data", "teebox.db"))).toBe(true);
  expect(existsSync(join(folder, "data", "secret.key"))).toBe(true);

  const page = await fetch(`${url}/bookings`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  const html = await page.text();
  expect(html).toContain('<div id="root">');
  // The installable app's pieces travel inside the binary too: the page's preloads, the manifest, its icons and the worker.
  expect(html).toContain('rel="modulepreload"');
  for (const path of ["/manifest.webmanifest", "/icons/icon-192.png", "/icons/maskable-512.png", "/sw.js"]) {
    const piece = await fetch(`${url}${path}`);
    expect({ path, status: piece.status }).toEqual({ path, status: 200 });
  }

  // The demo members are seeded and their club logins work against the embedded demo club.
  const login = await fetch(`${url}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "maria", password: "demo1234" }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  const verify = await fetch(`${url}/v1/my/verify-credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, cookie },
    body: JSON.stringify({ email: "maria@southwoods.demo", password: "maria-club" }),
  });
  expect(verify.status).toBe(200);

  const backup = run("backup", join(folder, "backup.db"));
  expect(backup.exitCode).toBe(0);
  expect(backup.stdout.toString()).toContain("integrity ok");
  const restore = run("restore", join(folder, "backup.db"));
  expect(restore.exitCode).toBe(1);
  expect(restore.stderr.toString()).toContain("is running");
}, 60_000);

test("once it has settled, it gives back the code only its start ran, and the pages of the executable it touched (decisions 209, 211)", async () => {
  if (!server || typeof server.stdout === "number" || !server.stdout) throw new Error("the server of the test above is not running");
  const reader = server.stdout.getReader();
  const decoder = new TextDecoder();
  let output = "";
  const deadline = Date.now() + 20_000;
  while (!output.includes("the start's code given back") && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!chunk || chunk.done) break;
    output += decoder.decode(chunk.value, { stream: true });
  }
  reader.releaseLock();
  const line = output.split("\n").find((l) => l.includes("the start's code given back"));
  expect(line).toBeDefined();
  const given = JSON.parse(line!) as { rssBeforeMb: number; rssAfterMb: number; filePagesMb: number };
  expect(given.rssAfterMb).toBeLessThan(given.rssBeforeMb);
  // With the code, the executable's pages the start touched (decision 211).
  expect(given.filePagesMb).toBeGreaterThan(0);
}, 30_000);
