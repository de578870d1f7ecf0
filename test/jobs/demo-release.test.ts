/**
 * The built-in demo club follows Teebox's release settings, with real processes and real time:
 * Teebox (`bun src/main.ts`, no CLUB_URL) starts the demo club with the stored settings; an admin
 * who moves the release to the next minute (and to a number of days before the demo club's own
 * default would not open yet) sees a member's request booked at that minute; after a restart the
 * demo club opens dates at the saved settings again. The demo club is told through its control
 * surface, never through Teebox's database.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { CLUB_INFO_FILE } from "../../src/club/club-info.ts";
import { CONTROL_TOKEN_HEADER } from "../../src/club-sim/control.ts";
import { addDays, manilaDate, manilaInstant, manilaTimeOfDay, weekdayOf } from "../../src/domain/manila-time.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";

const ROOT = join(import.meta.dir, "..", "..");
const ADMIN_PASSWORD = "demo-release-admin-password";

let child: Subprocess | null = null;
let dir: string | null = null;
afterEach(async () => {
  child?.kill("SIGKILL");
  await child?.exited;
  child = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Starts Teebox in demo mode and waits for it to answer; its address from its first log line. */
async function startTeebox(dataDir: string): Promise<{ url: string; proc: Subprocess }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: dataDir,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let printed = "";
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    printed += decoder.decode(value);
    const match = /Teebox is running at (http:\/\/\S+)/.exec(printed);
    if (match) {
      // Keep draining so a full pipe never stalls the child.
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { url: match[1]!, proc };
    }
  }
  throw new Error(`Teebox did not start:\n${printed}`);
}

async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: url }, body: JSON.stringify({ username, password }) });
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0]!;
}

/** When the demo club opens dates, read through its control surface. */
async function demoClubRelease(dataDir: string): Promise<{ releaseTime: string; releaseDaysBefore: number }> {
  const info = JSON.parse(readFileSync(join(dataDir, CLUB_INFO_FILE), "utf8")) as { url: string; controlToken: string };
  const res = await fetch(`${info.url}/__control/state`, { headers: { [CONTROL_TOKEN_HEADER]: info.controlToken } });
  return ((await res.json()) as { release: { releaseTime: string; releaseDaysBefore: number } }).release;
}

async function saveRelease(url: string, cookie: string, release: { release_time: string; release_days_before: number }) {
  const current = (await (await fetch(`${url}/v1/admin/app-settings`, { headers: { cookie } })).json()) as { settings: Record<string, unknown> };
  const res = await fetch(`${url}/v1/admin/app-settings`, {
    method: "PUT",
    headers: { "content-type": "application/json", origin: url, cookie },
    body: JSON.stringify({ ...current.settings, ...release }),
  });
  expect(res.status).toBe(200);
}

/** Submits a booking request over the socket, as the Book page does, and returns the answer. */
async function submitRequest(url: string, cookie: string, payload: unknown): Promise<ServerMessage> {
  const ws = new WebSocket(`${url.replace("http:", "ws:")}/v1/ws`, { headers: { origin: url, cookie } } as unknown as string[]);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("the socket did not open"));
    });
    const answer = new Promise<ServerMessage>((resolve) => {
      ws.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage;
        if (message.type === "submissionResult" || message.type === "error") resolve(message);
      };
    });
    ws.send(JSON.stringify({ action: "SUBMIT_BOOKING_REQUEST", payload, requestId: "demo-release" }));
    return await answer;
  } finally {
    ws.close();
  }
}

test("the demo club opens dates at the release settings an admin saves, at start and when saved", async () => {
  dir = mkdtempSync(join(tmpdir(), "teebox-demo-release-"));
  let teebox = await startTeebox(dir);
  child = teebox.proc;
  // At start: the stored settings (the product's defaults).
  expect(await demoClubRelease(dir)).toEqual({ releaseTime: "07:00", releaseDaysBefore: 7 });

  // The admin moves the release to the next minute (at least 15 s ahead), 8 days before: the demo
  // club's own default (7 days, 07:00) would not open that date until tomorrow.
  const admin = await signIn(teebox.url, "admin", ADMIN_PASSWORD);
  const instant = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
  const releaseTime = manilaTimeOfDay(instant).slice(0, 5);
  await saveRelease(teebox.url, admin, { release_time: releaseTime, release_days_before: 8 });
  expect(await demoClubRelease(dir)).toEqual({ releaseTime, releaseDaysBefore: 8 });

  // A member's request for the date that opens at that minute is booked at the release.
  const playDate = addDays(manilaDate(instant), 8);
  const course = weekdayOf(playDate) === 1 ? "masters" : "legends";
  const maria = await signIn(teebox.url, "maria", "demo1234");
  const times = ["06:00", "06:08", "06:16", "06:24", "06:32", "06:40"].map((time) => ({ time, slotId: null }));
  const answer = await submitRequest(teebox.url, maria, {
    course,
    targetDate: playDate,
    selectionOrder: times,
    memberCartType: "Rental Cart - Solo",
    playerDetails: { players: [] },
  });
  expect(answer).toMatchObject({ type: "submissionResult", status: "pending", details: { releaseAt: manilaInstant(manilaDate(instant), releaseTime) } });
  const deadline = instant + 45_000;
  let booked: { status: string; failureReason: string | null } | undefined;
  while (Date.now() < deadline) {
    const requests = (await (await fetch(`${teebox.url}/v1/my/requests`, { headers: { cookie: maria } })).json()) as {
      play_date: string;
      status: string;
      failureReason: string | null;
    }[];
    const bookings = (await (await fetch(`${teebox.url}/v1/my/bookings`, { headers: { cookie: maria } })).json()) as { date: string }[];
    const failed = requests.find((r) => r.play_date === playDate && r.status === "Failed");
    if (failed) {
      booked = failed;
      break;
    }
    if (bookings.length > 0) {
      booked = { status: "Confirmed", failureReason: null };
      break;
    }
    await Bun.sleep(500);
  }
  expect(booked).toEqual({ status: "Confirmed", failureReason: null });

  // Restarted, Teebox starts its demo club with the saved settings.
  teebox.proc.kill("SIGTERM");
  await teebox.proc.exited;
  teebox = await startTeebox(dir);
  child = teebox.proc;
  expect(await demoClubRelease(dir)).toEqual({ releaseTime, releaseDaysBefore: 8 });
}, 180_000);
