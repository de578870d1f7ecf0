/**
 * Builds dist/teebox: one executable (bun build --compile) that embeds the server, the web bundle
 * (through the HTML import in src/server.ts), the migrations and the demo club.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
mkdirSync(join(root, "dist"), { recursive: true });
const started = performance.now();
const result = Bun.spawnSync(
  ["bun", "build", "--compile", "--minify", "--sourcemap", "src/main.ts", "--outfile", "dist/teebox"],
  { cwd: root, stdout: "inherit", stderr: "inherit", env: { ...process.env, NODE_ENV: "production" } },
);
if (result.exitCode !== 0) process.exit(result.exitCode ?? 1);
const size = Bun.file(join(root, "dist/teebox")).size;
console.log(`dist/teebox: ${(size / 1024 / 1024).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
