/**
 * Crash safety with real processes: Teebox (`bun src/main.ts`) is killed with SIGKILL while a
 * booking post is at the club, started again, and must end with exactly one booking and no second
 * post: a release's post, and an edit's (the new slot booked at the club, the old booking then
 * cancelled as the member asked); a request whose release passed while Teebox was down is processed
 * on start. The demo club runs in this test, behind a small proxy that can hold the club's answer
 * to a booking post (the club books; Teebox never hears back).
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { eq } from "drizzle-orm";
import { createClubSim, type ClubSim } from "../../src/club-sim/index.ts";
import { openDatabase, type AppDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { seed } from "../../src/db/seed.ts";
import { bookingRequests, bookings, editAttempts, requestAttempts, users } from "../../src/db/schema.ts";
import { addDays, manilaDate, manilaInstant, weekdayOf } from "../../src/domain/manila-time.ts";
import { createSecretBox, keyFromString } from "../../src/lib/secret-box.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SECRET_KEY = "crash-test-secret-key-0123456789";
const MARIA_PASSWORD = "maria-teebox-1";

interface Harness {
  dir: string;
  sim: ClubSim;
  simUrl: string;
  proxyUrl: string;
  holdBookings: boolean;
  /** Resolves when a held booking post has been answered by the club (and swallowed). */
  heldAnswered: Promise<void>;
  stop(): Promise<void>;
}

let harness: Harness | null = null;
let child: Subprocess | null = null;
afterEach(async () => {
  child?.kill("SIGKILL");
  await child?.exited;
  child = null;
  await harness?.stop();
  harness = null;
});

async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "teebox-crash-"));
  const sim = createClubSim({ seed: 5, prebookedShare: 0, blockedShare: 0 });
  const running = await sim.start();
  let markAnswered!: () => void;
  const h: Harness = {
    dir,
    sim,
    simUrl: running.url,
    proxyUrl: "",
    holdBookings: false,
    heldAnswered: new Promise<void>((resolve) => (markAnswered = resolve)),
    stop: async () => {
      proxy.stop(true);
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const proxy = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.delete("host");
      const body = request.method === "GET" ? undefined : await request.arrayBuffer();
      const answer = await fetch(h.simUrl + url.pathname + url.search, { method: request.method, headers, body, redirect: "manual" });
      if (h.holdBookings && request.method === "POST" && url.pathname === "/members/book") {
        await answer.arrayBuffer();
        markAnswered();
        return new Promise<Response>(() => undefined);
      }
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
    },
  });
  h.proxyUrl = `http://127.0.0.1:${proxy.port}`;
  return h;
}

/** A play date the club has open, with Masters running, and its (past) release instant. */
function openMastersDate(): { date: string; releaseAt: number } {
  let date = addDays(manilaDate(Date.now()), 2);
  while (weekdayOf(date) === 7) date = addDays(date, 1);
  return { date, releaseAt: manilaInstant(addDays(date, -7), "07:00") };
}

async function prepareDatabase(dir: string, request: { date: string; releaseAt: number; time: string }): Promise<number> {
  const database = openDatabase(`file:${join(dir, "teebox.db")}`);
  try {
    await migrate(database, Date.now());
    const secretBox = createSecretBox(keyFromString(SECRET_KEY));
    await seed(database, { now: Date.now(), adminPassword: "crash-admin-password", demo: false, secretBox, hashPassword: async () => "x", announce: () => undefined });
    const now = Date.now();
    const [maria] = await database.db
      .insert(users)
      .values({
        username: "maria",
        passwordHash: await Bun.password.hash(MARIA_PASSWORD, { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 }),
        name: "Maria Santos",
        memberId: "SW-1001",
        clubEmail: "maria@southwoods.demo",
        clubPasswordSealed: secretBox.seal("maria-club"),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const player = { type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" };
    const [row] = await database.db
      .insert(bookingRequests)
      .values({
        userId: maria.id,
        courseId: "masters",
        playDate: request.date,
        selection: [
          { time: request.time, slotId: null },
          { time: "16:40", slotId: null },
        ],
        players: [player],
        memberCartType: "Walking",
        status: "pending",
        releaseAt: request.releaseAt,
        submittedAt: now - 60_000,
        updatedAt: now - 60_000,
      })
      .returning();
    return row.id;
  } finally {
    await database.close();
  }
}

function startTeebox(h: Harness, clubUrl: string): Subprocess<"ignore", "pipe", "ignore"> {
  return Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], {
    cwd: h.dir,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: h.dir, SECRET_KEY, CLUB_URL: clubUrl, ADMIN_PASSWORD: "crash-admin-password", LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "ignore",
  });
}

/**
 * Where the child serves, from the line it prints once it is serving. Its output is read to the end
 * afterwards: a pipe closed under it would fail its next log line and end it (EPIPE).
 */
async function servingUrl(process: Subprocess<"ignore", "pipe", "ignore">): Promise<string> {
  let printed = "";
  const decoder = new TextDecoder();
  const reader = process.stdout.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Teebox exited before serving:\n${printed}`);
    printed += decoder.decode(value);
    const url = /Teebox is running at (http:\/\/\S+)/.exec(printed)?.[1];
    if (url) {
      void drain(reader);
      return url;
    }
  }
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done);
}

/** Reads the database the child writes (WAL lets a second connection read while it runs). */
async function readUntil<T>(dir: string, read: (db: AppDatabase) => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const database = openDatabase(`file:${join(dir, "teebox.db")}`);
    try {
      const value = await read(database);
      if (value !== null) return value;
    } finally {
      await database.close();
    }
    if (performance.now() > deadline) throw new Error("the expected state never came");
    await Bun.sleep(25);
  }
}

const bookPostsOf = (sim: ClubSim, email: string) => sim.attempts().filter((a) => a.email === email && !a.isRival);

test("killed between 'sent' and the club's answer, restarted: exactly one booking, no second post", async () => {
  const h = (harness = await startHarness());
  const { date, releaseAt } = openMastersDate();
  const requestId = await prepareDatabase(h.dir, { date, releaseAt, time: "06:00" });

  h.holdBookings = true;
  child = startTeebox(h, h.proxyUrl);
  await readUntil(h.dir, async (d) => {
    const rows = await d.db.select().from(requestAttempts).where(eq(requestAttempts.requestId, requestId));
    return rows.some((a) => a.state === "sent") ? true : null;
  });
  await h.heldAnswered;
  child.kill("SIGKILL");
  await child.exited;
  expect(h.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);

  h.holdBookings = false;
  child = startTeebox(h, h.proxyUrl);
  const request = await readUntil(h.dir, async (d) => {
    const [row] = await d.db.select().from(bookingRequests).where(eq(bookingRequests.id, requestId));
    return row.status === "confirmed" ? row : null;
  });
  const [clubBooking] = h.sim.bookingsOf("maria@southwoods.demo");
  expect(request.bookingRef).toBe(clubBooking.ref);
  expect(h.sim.bookingsOf("maria@southwoods.demo")).toHaveLength(1);
  expect(bookPostsOf(h.sim, "maria@southwoods.demo")).toHaveLength(1);
  const stored = await readUntil(h.dir, async (d) => d.db.select().from(bookings));
  expect(stored.map((b) => [b.bookingRef, b.time])).toEqual([[clubBooking.ref, "06:00"]]);
}, 60_000);

test("a request whose release passed while Teebox was down is processed on start, its lateness recorded", async () => {
  const h = (harness = await startHarness());
  const { date, releaseAt } = openMastersDate();
  const requestId = await prepareDatabase(h.dir, { date, releaseAt, time: "06:08" });
  child = startTeebox(h, h.simUrl);
  const request = await readUntil(h.dir, async (d) => {
    const [row] = await d.db.select().from(bookingRequests).where(eq(bookingRequests.id, requestId));
    return row.status === "confirmed" || row.status === "failed" ? row : null;
  });
  expect(request.status).toBe("confirmed");
  expect(request.latenessMs).toBeGreaterThan(Date.now() - releaseAt - 60_000);
  expect(h.sim.bookingsOf("maria@southwoods.demo").map((b) => b.time)).toEqual(["06:08"]);
}, 60_000);

test("killed while an edit's post for the new slot is at the club, restarted: the edit is completed once, the old booking cancelled, no second post", async () => {
  const h = (harness = await startHarness());
  const { date, releaseAt } = openMastersDate();
  const requestId = await prepareDatabase(h.dir, { date, releaseAt, time: "06:00" });
  const running = startTeebox(h, h.proxyUrl);
  child = running;
  const url = await servingUrl(running);
  const request = await readUntil(h.dir, async (d) => {
    const [row] = await d.db.select().from(bookingRequests).where(eq(bookingRequests.id, requestId));
    return row.status === "confirmed" ? row : null;
  });
  const oldRef = request.bookingRef!;

  // The member moves the booking to 06:16; the club books it, and Teebox never hears back.
  const login = await fetch(`${url}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "maria", password: MARIA_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  h.holdBookings = true;
  const body = { course: "masters", targetDate: date, selectionOrder: [{ time: "06:16", slotId: null }], memberCartType: "Walking", playerDetails: { players: [] } };
  void fetch(`${url}/v1/bookings/${oldRef}/edit`, { method: "POST", headers: { "content-type": "application/json", origin: url, cookie }, body: JSON.stringify(body) }).catch(
    () => undefined,
  );
  // The club has booked the new slot and its answer is held: only what was written before the post
  // left tells the next start about it.
  await h.heldAnswered;
  running.kill("SIGKILL");
  await running.exited;
  expect(
    h.sim
      .bookingsOf("maria@southwoods.demo")
      .map((b) => b.time)
      .sort(),
  ).toEqual(["06:00", "06:16"]);

  h.holdBookings = false;
  child = startTeebox(h, h.proxyUrl);
  const settled = await readUntil(h.dir, async (d) => {
    const [attempt] = await d.db.select().from(editAttempts);
    return attempt?.state === "answered" ? attempt : null;
  });
  const clubBookings = () => h.sim.bookingsOf("maria@southwoods.demo");
  expect(settled).toMatchObject({ outcome: "confirmed", time: "06:16", replacesRef: oldRef });
  // The old booking is cancelled at the club once the new one is known to stand.
  const stored = await readUntil(h.dir, async (d) => {
    const rows = await d.db.select().from(bookings);
    return rows.length === 1 && clubBookings().length === 1 ? rows : null;
  });
  const [newAtClub] = clubBookings();
  expect(newAtClub.time).toBe("06:16");
  expect(stored.map((b) => [b.bookingRef, b.time, b.requestId])).toEqual([[newAtClub.ref, "06:16", null]]);
  expect(settled.bookingRef).toBe(newAtClub.ref);
  // One post for the new slot, none after the restart.
  expect(bookPostsOf(h.sim, "maria@southwoods.demo").map((a) => a.time)).toEqual(["06:00", "06:16"]);
}, 60_000);
