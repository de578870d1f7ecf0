/**
 * A server in a process of its own that notes when each request arrived (on the real clock, also to a fraction of a millisecond) and
 * how many it was answering at once, so a test can check when posts left while its own thread is
 * busy. Paths: `/slow` answers after 100 ms, `/hang` never answers, anything else at once with a
 * cookie; `GET /__log` gives what was seen.
 *
 * Run as a script (`bun test/helpers/recording-server.ts`) it prints `{"url": …}` on its first line.
 */
import { systemClock } from "../../src/lib/clock.ts";
import { firstJsonLine } from "./club-process.ts";

export interface Arrival {
  path: string;
  atMs: number;
  /** The same moment to a fraction of a millisecond (the system's precise clock). */
  atPreciseMs: number;
  body: string;
}

export interface RecordingServer {
  url: string;
  log(): Promise<{ arrivals: Arrival[]; maxConcurrent: number }>;
  stop(): Promise<void>;
}

if (import.meta.main) {
  const arrivals: Arrival[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const atPreciseMs = systemClock.precise!.now();
      const atMs = Date.now();
      const path = new URL(request.url).pathname;
      if (path === "/__log") return Response.json({ arrivals, maxConcurrent });
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        arrivals.push({ path, atMs, atPreciseMs, body: await request.text() });
        if (path === "/hang") await new Promise(() => undefined);
        if (path === "/slow") await Bun.sleep(100);
        return new Response(`answered ${path}`, { headers: { "set-cookie": "seen=1; Path=/" } });
      } finally {
        concurrent--;
      }
    },
  });
  console.log(JSON.stringify({ url: server.url.href.replace(/\/$/, "") }));
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const child = Bun.spawn([process.execPath, import.meta.path], { stdout: "pipe", stderr: "inherit" });
  const { url } = await firstJsonLine<{ url: string }>(child.stdout);
  return {
    url,
    log: async () => (await fetch(`${url}/__log`)).json() as Promise<{ arrivals: Arrival[]; maxConcurrent: number }>,
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}
