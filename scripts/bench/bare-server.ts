/**
 * The baselines for scripts/bench/api.ts: answers the bytes it reads on stdin, as JSON, to every
 * path. `blob` answers them from a Blob made once, as Teebox's fast path does (decision 212); else
 * from the bytes themselves, which a Response copies for each answer.
 * Usage: bun scripts/bench/bare-server.ts <port> [bytes|blob] < body
 */
export {};
const port = Number(process.argv[2]);
const bytes = new Uint8Array(await Bun.stdin.arrayBuffer());
const body = process.argv[3] === "blob" ? new Blob([bytes]) : bytes;
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
