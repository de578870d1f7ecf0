/**
 * The pieces of the load test: Teebox as a child process (`bun src/main.ts`) with its log lines
 * collected, HTTP calls that keep latency and error counts, and member sockets that match each
 * answer to the action that asked for it.
 */
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { ClientAction, ServerMessage } from "../../src/realtime/messages.ts";

const ROOT = join(import.meta.dir, "..", "..");

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port as number;
  server.stop(true);
  return port;
}

export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

export interface TeeboxChild {
  url: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Structured log lines (stdout) and anything else the process wrote (stderr). */
  logLines: LogLine[];
  stderrText(): string;
  stop(): Promise<void>;
}

async function collectLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      onLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  }
  if (buffered) onLine(buffered);
}

/** Starts Teebox on a free loopback port and waits (bounded) for /healthz to answer. */
export async function startTeeboxChild(env: Record<string, string>, timeoutMs = 20_000): Promise<TeeboxChild> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: env.DATA_DIR,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const logLines: LogLine[] = [];
  let stderr = "";
  // Both pipes are drained all along: a full pipe would stall the child.
  const drained = Promise.all([
    collectLines(proc.stdout, (line) => {
      if (!line.startsWith("{")) return;
      try {
        logLines.push(JSON.parse(line) as LogLine);
      } catch {
        logLines.push({ level: "unparsed", message: line });
      }
    }),
    collectLines(proc.stderr, (line) => (stderr += `${line}\n`)),
  ]);
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/healthz`).catch(() => null);
    if (res) {
      await res.arrayBuffer();
      break;
    }
    if (proc.exitCode !== null || performance.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`Teebox did not start (exit ${proc.exitCode}): ${stderr.slice(-2000)}`);
    }
    await Bun.sleep(25);
  }
  return {
    url,
    proc,
    logLines,
    stderrText: () => stderr,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await proc.exited;
      clearTimeout(timer);
      await drained;
    },
  };
}

// ── HTTP with counts ─────────────────────────────────────────────────────

export interface HttpStats {
  count: number;
  latenciesMs: number[];
  /** Network errors and 5xx answers. */
  serverErrors: string[];
  /** Any other answer than the one expected (4xx where 2xx was expected). */
  unexpected: string[];
}

export const newHttpStats = (): HttpStats => ({ count: 0, latenciesMs: [], serverErrors: [], unexpected: [] });

export interface Caller {
  url: string;
  cookie: string;
}

/** One JSON call as the web app makes it; the parsed body, or null when it failed (counted). */
export async function callJson<T>(stats: HttpStats, caller: Caller, method: string, path: string, body?: unknown): Promise<T | null> {
  const started = performance.now();
  stats.count++;
  let res: Response;
  try {
    res = await fetch(`${caller.url}${path}`, {
      method,
      headers: { accept: "application/json", "content-type": "application/json", origin: caller.url, cookie: caller.cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    stats.serverErrors.push(`${method} ${path}: ${(error as Error).message}`);
    return null;
  }
  const text = await res.text();
  stats.latenciesMs.push(performance.now() - started);
  if (res.status >= 500) {
    stats.serverErrors.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return null;
  }
  if (!res.ok) {
    stats.unexpected.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return null;
  }
  return (text ? JSON.parse(text) : null) as T;
}

export async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username} failed: ${res.status} ${await res.text()}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

// ── member sockets ───────────────────────────────────────────────────────

/** Bun's WebSocket sends headers (the session cookie, our Origin); the DOM typing of its constructor does not know them. */
const HeaderedWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

export const CANCEL_TOAST_KEY = "bookings.toast.request_cancelled";

export interface Answer {
  message: ServerMessage | null;
  ms: number;
}

/**
 * One open socket of a member. Answers carrying a requestId go to the action that sent it;
 * CANCEL_REQUEST is answered with a toast to every socket of the member (no requestId), so its
 * answer on this socket is the next cancel toast beyond the count the caller expects.
 */
export class MemberSocket {
  cancelToasts = 0;
  statusUpdates = 0;
  closedUnexpectedly: string | null = null;
  protocolErrors: string[] = [];
  private isClosing = false;
  private waiters = new Map<string, (message: ServerMessage) => void>();
  private toastWaiters: { count: number; resolve: () => void }[] = [];
  private seq = 0;

  private constructor(
    readonly socket: WebSocket,
    readonly label: string,
  ) {}

  static open(url: string, cookie: string, label: string, timeoutMs = 10_000): Promise<MemberSocket> {
    const wsUrl = `${url.replace(/^http/, "ws")}/v1/ws`;
    return new Promise((resolve, reject) => {
      const socket = new HeaderedWebSocket(wsUrl, { headers: { cookie, origin: url } });
      const member = new MemberSocket(socket, label);
      const timer = setTimeout(() => reject(new Error(`socket ${label} did not open`)), timeoutMs);
      socket.onopen = () => {
        clearTimeout(timer);
        resolve(member);
      };
      socket.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`socket ${label} failed to open`));
      };
      socket.onclose = (event) => {
        if (!member.isClosing) member.closedUnexpectedly = `${event.code} ${event.reason}`;
      };
      socket.onmessage = (event) => member.receive(String(event.data));
    });
  }

  private receive(raw: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(raw) as ServerMessage;
    } catch {
      this.protocolErrors.push(`not JSON: ${raw.slice(0, 100)}`);
      return;
    }
    if (message.type === "status") this.statusUpdates++;
    if (message.type === "toast" && message.toast.textKey === CANCEL_TOAST_KEY) {
      this.cancelToasts++;
      this.toastWaiters = this.toastWaiters.filter((w) => {
        if (this.cancelToasts < w.count) return true;
        w.resolve();
        return false;
      });
    }
    const requestId = "requestId" in message ? message.requestId : undefined;
    if (requestId !== undefined) {
      const waiter = this.waiters.get(requestId);
      this.waiters.delete(requestId);
      waiter?.(message);
    }
  }

  /** Sends an action and waits (bounded) for its answer; null message when none came in time. */
  send(action: ClientAction, payload: unknown, timeoutMs: number): Promise<Answer> {
    const requestId = `${this.label}-${++this.seq}`;
    const started = performance.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(requestId);
        resolve({ message: null, ms: performance.now() - started });
      }, timeoutMs);
      this.waiters.set(requestId, (message) => {
        clearTimeout(timer);
        resolve({ message, ms: performance.now() - started });
      });
      this.socket.send(JSON.stringify({ action, payload, requestId }));
    });
  }

  /**
   * CANCEL_REQUEST: answered by an ack or an error with our requestId, or by the member's cancel
   * toast number `expectedToasts` reaching this socket, whichever comes first.
   */
  sendCancel(id: number, expectedToasts: number, timeoutMs: number): Promise<Answer> {
    const started = performance.now();
    return new Promise((resolve) => {
      let isDone = false;
      const finish = (message: ServerMessage | null) => {
        if (isDone) return;
        isDone = true;
        clearTimeout(timer);
        resolve({ message, ms: performance.now() - started });
      };
      const timer = setTimeout(() => finish(null), timeoutMs);
      if (this.cancelToasts >= expectedToasts) return finish({ type: "toast", toast: { kind: "success", textKey: CANCEL_TOAST_KEY } });
      this.toastWaiters.push({ count: expectedToasts, resolve: () => finish({ type: "toast", toast: { kind: "success", textKey: CANCEL_TOAST_KEY } }) });
      void this.send("CANCEL_REQUEST", { id }, timeoutMs).then((answer) => {
        if (answer.message) finish(answer.message);
      });
    });
  }

  close(): void {
    this.isClosing = true;
    this.socket.close();
  }
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
