/** The baseline for scripts/bench/api.ts: answers the bytes it reads on stdin, as JSON, to every path. */
export {};
const port = Number(process.argv[2]);
const body = new Uint8Array(await Bun.stdin.arrayBuffer());
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
