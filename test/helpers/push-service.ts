/**
 * A push service stand-in on loopback (Bun.serve), for the push tests: it takes Web Push requests
 * as a browser vendor's service does (RFC 8030), checks what one checks (aes128gcm, a TTL, a VAPID
 * token signed by the key it names, for this origin, not expired: RFC 8292), keeps every push with
 * the moment it arrived, and answers what a test asks of each device (201 by default, or 404, 410,
 * 429 with Retry-After, 500, or no answer at all until released).
 */
import { importJWK, jwtVerify } from "jose";

export interface ReceivedPush {
  /** The device, from the endpoint's last path segment. */
  device: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** performance.now() when the request arrived. */
  receivedAt: number;
  /** What the VAPID token said, once verified. */
  vapid: { subject: string; audience: string; expiresAt: number; publicKey: string };
  /** The status it was answered with. */
  status: number;
}

export interface PushAnswer {
  status: number;
  retryAfter?: string;
  body?: string;
}

export interface PushServiceStandIn {
  origin: string;
  endpointFor(device: string): string;
  /** Every push that passed the checks, in arrival order (whatever it was answered). */
  received: ReceivedPush[];
  /** Requests refused by the checks themselves (a bad token, no TTL …), with why. */
  rejected: { device: string; reason: string }[];
  /** Pushes that arrived and wait for their answer (held). */
  waiting(): number;
  /** Answers the device's next pushes with these, in order (then 201 again). */
  answer(device: string, ...answers: (number | PushAnswer)[]): void;
  /** Holds every request (or only the device's) without an answer until the returned function is called. */
  hold(device?: string): () => void;
  /** Resolves once `count` pushes have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  stop(): void;
}

async function verifyVapid(authorization: string | null, origin: string): Promise<ReceivedPush["vapid"]> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`no VAPID authorization (${authorization})`);
  const [, token, publicKey] = match;
  const point = Buffer.from(publicKey!, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Error("the VAPID key is not a P-256 point");
  const key = await importJWK({ kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, "ES256");
  const { payload, protectedHeader } = await jwtVerify(token!, key, { audience: origin, algorithms: ["ES256"] });
  if (typeof payload.sub !== "string" || !/^(mailto:|https:)/.test(payload.sub)) throw new Error(`the VAPID subject is not mailto: or https: (${payload.sub})`);
  if (typeof payload.exp !== "number") throw new Error("the VAPID token has no expiry");
  if (protectedHeader.typ !== "JWT") throw new Error("the VAPID token is not typed JWT");
  return { subject: payload.sub, audience: String(payload.aud), expiresAt: payload.exp, publicKey: publicKey! };
}

/** `latencyMs`: how long each answer takes, as a real push service's round trip would (benchmarks). */
export function startPushService(options: { latencyMs?: number } = {}): PushServiceStandIn {
  const received: ReceivedPush[] = [];
  const rejected: { device: string; reason: string }[] = [];
  const answers = new Map<string, PushAnswer[]>();
  /** Held requests: all of them (key "*"), or a device's. */
  const held = new Map<string, Promise<void>>();
  let waitingCount = 0;
  let waiters: (() => void)[] = [];

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const receivedAt = performance.now();
      const url = new URL(request.url);
      const device = url.pathname.split("/").at(-1) ?? "";
      if (request.method !== "POST" || !url.pathname.startsWith("/push/")) return new Response("not found", { status: 404 });
      const body = new Uint8Array(await request.arrayBuffer());
      const headers = Object.fromEntries(request.headers.entries());
      const refuse = (status: number, reason: string) => {
        rejected.push({ device, reason });
        return new Response(reason, { status });
      };
      if (headers["content-encoding"] !== "aes128gcm") return refuse(400, `content-encoding ${headers["content-encoding"]}`);
      if (!/^\d+$/.test(headers.ttl ?? "")) return refuse(400, "no TTL");
      let vapid: ReceivedPush["vapid"];
      try {
        vapid = await verifyVapid(request.headers.get("authorization"), url.origin);
      } catch (error) {
        return refuse(403, `VAPID: ${(error as Error).message}`);
      }
      const holding = held.get("*") ?? held.get(device);
      if (holding) {
        waitingCount++;
        await holding;
        waitingCount--;
      }
      if (options.latencyMs) await Bun.sleep(options.latencyMs);
      const answer = answers.get(device)?.shift() ?? { status: 201 };
      received.push({ device, headers, body, receivedAt, vapid, status: answer.status });
      for (const wake of waiters) wake();
      return new Response(answer.body ?? "", { status: answer.status, headers: answer.retryAfter ? { "retry-after": answer.retryAfter } : {} });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;

  return {
    origin,
    endpointFor: (device) => `${origin}/push/${device}`,
    received,
    rejected,
    waiting: () => waitingCount,
    answer(device, ...given) {
      answers.set(device, [...(answers.get(device) ?? []), ...given.map((a) => (typeof a === "number" ? { status: a } : a))]);
    },
    hold(device = "*") {
      let release = () => {};
      held.set(
        device,
        new Promise<void>((resolve) => {
          release = () => {
            held.delete(device);
            resolve();
          };
        }),
      );
      return release;
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = performance.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`the push service received ${received.length} of ${count} pushes (refused: ${JSON.stringify(rejected)})`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters = [];
      }
      return received.slice(0, count);
    },
    stop: () => void server.stop(true),
  };
}
