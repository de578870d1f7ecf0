/**
 * What the soak reads of Teebox's own record, straight from its database file (read only, beside
 * the running server: WAL lets a reader in without blocking it), and the one write it makes: the
 * club's member list, enrolled before Teebox first serves them (a member's own setup through the
 * wizard is played for a few of them; hashing 200 passwords through the API would be the whole
 * first minutes of a 7-day run).
 */
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { CART_CHOICES, GUEST_FEE_CHOICES, MEMBER_FEE_CHOICES, type ClubAccount } from "../../../src/club-sim/demo-data.ts";
import { openDatabase } from "../../../src/db/client.ts";
import { users } from "../../../src/db/schema.ts";
import { createSecretBox, keyFromString } from "../../../src/lib/secret-box.ts";

export interface RequestRecord {
  id: number;
  userId: number;
  playDate: string;
  courseId: string;
  status: string;
  releaseAt: number;
  /** When the member stored it (our clock). */
  submittedAt: number;
  bookingRef: string | null;
  reasonKey: string | null;
  failureReason: string | null;
  /** The times asked for, in order. */
  times: string[];
}

export interface BookingRecord {
  bookingRef: string;
  userId: number;
  playDate: string;
  courseId: string;
  time: string;
  requestId: number | null;
}

export interface WatchRecord {
  id: number;
  userId: number;
  playDate: string;
  status: string;
  bookingRef: string | null;
}

export interface TeeboxSnapshot {
  requests: RequestRecord[];
  bookings: BookingRecord[];
  watches: WatchRecord[];
  /** Queued emails and the oldest one's creation time. */
  mailQueued: number;
  oldestQueuedMailAt: number | null;
  mailSent: number;
  mailFailed: number;
  /** Rows per table. */
  tableRows: Record<string, number>;
  /** The database file and its WAL, in bytes. */
  databaseBytes: number;
  walBytes: number;
  /** When the bookings sync last read and applied each member's club bookings (user id → Teebox's clock). */
  bookingsReadAt: Map<number, number>;
}

export const databasePathOf = (dataDir: string) => join(dataDir, "teebox.db");

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** How many requests due by `releaseAtClub` (the club's clock) are still processing. */
export function processingDueBy(dataDir: string, releaseAtClub: number): number {
  const db = new Database(databasePathOf(dataDir), { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const row = db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM booking_requests WHERE status = 'processing' AND release_at <= ?").get(releaseAtClub);
    return row?.n ?? 0;
  } finally {
    db.close();
  }
}

export function readSnapshot(dataDir: string): TeeboxSnapshot {
  const path = databasePathOf(dataDir);
  const db = new Database(path, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const requests = db
      .query<
        {
          id: number;
          user_id: number;
          play_date: string;
          course_id: string;
          status: string;
          release_at: number;
          submitted_at: number;
          booking_ref: string | null;
          reason_key: string | null;
          failure_reason: string | null;
          selection: string;
        },
        []
      >("SELECT id, user_id, play_date, course_id, status, release_at, submitted_at, booking_ref, reason_key, failure_reason, selection FROM booking_requests")
      .all()
      .map((r) => ({
        id: r.id,
        userId: r.user_id,
        playDate: r.play_date,
        courseId: r.course_id,
        status: r.status,
        releaseAt: r.release_at,
        submittedAt: r.submitted_at,
        bookingRef: r.booking_ref,
        reasonKey: r.reason_key,
        failureReason: r.failure_reason,
        times: (JSON.parse(r.selection) as { time: string }[]).map((s) => s.time),
      }));
    const bookings = db
      .query<{ booking_ref: string; user_id: number; play_date: string; course_id: string; time: string; request_id: number | null }, []>(
        "SELECT booking_ref, user_id, play_date, course_id, time, request_id FROM bookings",
      )
      .all()
      .map((b) => ({ bookingRef: b.booking_ref, userId: b.user_id, playDate: b.play_date, courseId: b.course_id, time: b.time, requestId: b.request_id }));
    const watches = db
      .query<{ id: number; user_id: number; play_date: string; status: string; booking_ref: string | null }, []>(
        "SELECT id, user_id, play_date, status, booking_ref FROM slot_watches",
      )
      .all()
      .map((w) => ({ id: w.id, userId: w.user_id, playDate: w.play_date, status: w.status, bookingRef: w.booking_ref }));
    const mail = db.query<{ state: string; n: number; oldest: number | null }, []>("SELECT state, count(*) AS n, min(created_at) AS oldest FROM mail_outbox GROUP BY state").all();
    const mailOf = (state: string) => mail.find((m) => m.state === state);
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'").all();
    const tableRows = Object.fromEntries(tables.map((t) => [t.name, (db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${t.name}"`).get()?.n ?? 0) as number]));
    const bookingsReadAt = new Map(
      db
        .query<{ id: number; at: number }, []>("SELECT id, club_bookings_read_at AS at FROM users WHERE club_bookings_read_at IS NOT NULL")
        .all()
        .map((u) => [u.id, u.at]),
    );
    return {
      requests,
      bookings,
      watches,
      mailQueued: mailOf("queued")?.n ?? 0,
      oldestQueuedMailAt: mailOf("queued")?.oldest ?? null,
      mailSent: mailOf("sent")?.n ?? 0,
      mailFailed: mailOf("failed")?.n ?? 0,
      tableRows,
      databaseBytes: sizeOf(path),
      walBytes: sizeOf(`${path}-wal`),
      bookingsReadAt,
    };
  } finally {
    db.close();
  }
}

/** The password every enrolled member signs in with (one hash, computed once). */
export const MEMBER_PASSWORD = "soak-member-password";

/**
 * Writes the club's members into Teebox's database while Teebox is stopped, as if each had been
 * created by an admin and had finished the setup wizard: a password of their own, a profile and a
 * club login (sealed with Teebox's key). Returns each member's user id, in the accounts' order.
 */
export async function enrolMembers(dataDir: string, secretKey: string, accounts: { username: string; account: ClubAccount }[], now: number): Promise<number[]> {
  const database = openDatabase(`file:${databasePathOf(dataDir)}`);
  try {
    const secretBox = createSecretBox(keyFromString(secretKey));
    // A light argon2id cost: the soak is not about hashing, and 200 members signing in again every
    // 14 simulated days would otherwise be most of its CPU (the admin and the wizard's members keep
    // Teebox's own cost).
    const passwordHash = await Bun.password.hash(MEMBER_PASSWORD, { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 });
    const rows = await database.db
      .insert(users)
      .values(
        accounts.map(({ username, account }) => ({
          username,
          passwordHash,
          name: `${account.firstName} ${account.lastName}`,
          memberId: account.membershipNumber,
          clubEmail: account.email,
          clubPasswordSealed: secretBox.seal(account.password),
          defaultCartType: CART_CHOICES[0],
          defaultFeeGuest: GUEST_FEE_CHOICES[0],
          defaultFeeMember: MEMBER_FEE_CHOICES[0],
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: users.id });
    return rows.map((r) => r.id);
  } finally {
    await database.close();
  }
}
