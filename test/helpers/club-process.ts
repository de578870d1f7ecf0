/**
 * The demo club in a process of its own, on the real clock, driven through its control API: a
 * booking it makes is seen there whatever Teebox believes, and its faults are switched from the
 * test as a club's trouble would start and end.
 *
 * Run as a script (`bun test/helpers/club-process.ts '<options json>'`) it starts the club and
 * prints `{"url": …}` on its first line.
 */
import type { ClubFaultsInput } from "../../src/club-sim/faults.ts";
import type { BookingAttemptRecord, SimBooking } from "../../src/club-sim/state.ts";

const CONTROL_TOKEN = "club-process-test";
const CONTROL_HEADER = "x-control-token";

export interface ClubProcessOptions {
  /** The club's clock minus ours. */
  clockOffsetMs: number;
  releaseTime: string;
  releaseDaysBefore: number;
  /** Member accounts beyond the demo ones: bench001@southwoods.demo … (generateAccounts). */
  extraAccounts: number;
}

export interface ClubProcess {
  url: string;
  /** Any control call (src/club-sim/control.ts): its JSON answer, or null for 204. */
  control<T = unknown>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T>;
  setFaults(input: ClubFaultsInput): Promise<void>;
  bookingsOf(email: string): Promise<SimBooking[]>;
  attempts(): Promise<BookingAttemptRecord[]>;
  stop(): Promise<void>;
}

if (import.meta.main) {
  const { createClubSim } = await import("../../src/club-sim/index.ts");
  const options = JSON.parse(process.argv[2] ?? "{}") as ClubProcessOptions;
  const sim = createClubSim({
    seed: 11,
    clockOffsetMs: options.clockOffsetMs,
    releaseTime: options.releaseTime,
    releaseDaysBefore: options.releaseDaysBefore,
    extraAccounts: options.extraAccounts,
    prebookedShare: 0,
    blockedShare: 0,
    controlToken: CONTROL_TOKEN,
  });
  const running = await sim.start();
  console.log(JSON.stringify({ url: running.url }));
  process.on("SIGTERM", () => void running.stop().then(() => process.exit(0)));
}

export async function startClubProcess(options: ClubProcessOptions): Promise<ClubProcess> {
  const child = Bun.spawn([process.execPath, import.meta.path, JSON.stringify(options)], { stdout: "pipe", stderr: "inherit" });
  const { url } = await firstJsonLine<{ url: string }>(child.stdout);
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/__control${path}`, {
      method,
      headers: { [CONTROL_HEADER]: CONTROL_TOKEN, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`club control ${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  return {
    url,
    async control<T>(method: string, path: string, body?: unknown) {
      const response = await control(method, path, body);
      return (response.status === 204 ? null : await response.json()) as T;
    },
    async setFaults(input) {
      await control("POST", "/faults", input);
    },
    async bookingsOf(email) {
      return ((await (await control("GET", `/bookings?email=${encodeURIComponent(email)}`)).json()) as { bookings: SimBooking[] }).bookings;
    },
    async attempts() {
      return ((await (await control("GET", "/attempts")).json()) as { attempts: BookingAttemptRecord[] }).attempts;
    },
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/** The JSON a child process prints on its first line (a server saying where it listens). */
export async function firstJsonLine<T>(stream: ReadableStream<Uint8Array>): Promise<T> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the process ended before it printed its first line");
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n"))) as T;
}
