/**
 * The baseline for scripts/bench/fanout.ts: a bare Bun.serve whose every socket joins one topic, and
 * which publishes the same `status: updated` text to it on POST /publish before answering. What it
 * takes to reach the same receivers is what the platform takes on this machine; Teebox's delay
 * beyond it is Teebox's own.
 *   bun scripts/bench/fanout-bare-server.ts <port>
 */
export {};
const port = Number(process.argv[2]);
const TOPIC = "all";
const text = JSON.stringify({ type: "status", status: "updated" });
const server = Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch(req, srv) {
    if (new URL(req.url).pathname === "/publish") {
      srv.publish(TOPIC, text);
      return new Response("{}", { headers: { "content-type": "application/json" } });
    }
    if (srv.upgrade(req)) return undefined;
    return new Response("ok");
  },
  websocket: {
    open: (ws) => {
      ws.subscribe(TOPIC);
    },
    message: () => {},
  },
});
console.log(`listening on ${server.port}`);
