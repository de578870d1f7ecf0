/**
 * The one writer of the bookings table besides a request's confirmation (request-lifecycle.ts):
 * a booking made by an edit, its players changed, removed once cancelled, and the club's own
 * list applied by the sync.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { AppDatabase, Db } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { bookings, courses, type StoredPlayer } from "../db/schema.ts";
import type { ClubBooking } from "../club/records.ts";
import type { DomainEvent, DomainEventOf } from "../domain/events.ts";

export type BookingRow = typeof bookings.$inferSelect;

/**
 * A booking row is one member's booking under a club reference: found by member and reference,
 * never by the reference alone (a club may issue a reference again, to another member).
 */
export const BOOKING_KEY = [bookings.userId, bookings.bookingRef];

/** A booking made at the club outside the release engine (an edit that moved a booking). */
export async function recordBooking(db: Db, row: Omit<typeof bookings.$inferInsert, "id">): Promise<BookingRow> {
  const [stored] = await db
    .insert(bookings)
    .values(row)
    .onConflictDoUpdate({ target: BOOKING_KEY, set: { players: row.players } })
    .returning();
  return stored;
}

/** An edit changed the booking's players (at the club first, by the caller). */
export async function changeBookingPlayers(db: Db, id: number, players: StoredPlayer[]): Promise<{ booking: BookingRow; event: DomainEventOf<"booking_edited"> }> {
  const [row] = await db.update(bookings).set({ players }).where(eq(bookings.id, id)).returning();
  return { booking: row, event: { type: "booking_edited", userId: row.userId, ref: row.bookingRef } };
}

/** The member cancelled it (at the club first, by the caller); null when it was already gone. */
export async function removeBooking(db: Db, id: number): Promise<DomainEventOf<"booking_cancelled"> | null> {
  const [row] = await db.delete(bookings).where(eq(bookings.id, id)).returning({ userId: bookings.userId, ref: bookings.bookingRef });
  return row ? { type: "booking_cancelled", userId: row.userId, ref: row.ref } : null;
}

export async function bookingsOfMember(db: Db, userId: number): Promise<BookingRow[]> {
  return db.select().from(bookings).where(eq(bookings.userId, userId));
}

const nameKey = (names: string[]) =>
  names
    .map((n) => n.trim().toLowerCase().replace(/\s+/g, " "))
    .sort()
    .join("|");
/**
 * Who plays, as both sides write it the same way: how many, and which member ids. Names are not
 * compared here: Teebox keeps the names the member typed, the club its own spelling of them.
 */
const flightKey = (ids: string[]) =>
  `${ids.length}:${ids
    .map((id) => id.trim().toUpperCase())
    .filter(Boolean)
    .sort()
    .join("|")}`;

/** Every outcome names its course: prepared once (decision 205). */
const courseName = preparedQuery((db) =>
  db
    .select({ name: courses.name })
    .from(courses)
    .where(eq(courses.id, sql.placeholder("courseId")))
    .limit(1)
    .prepare(),
);

/** A course's name as members read it (its id when it is gone). */
export async function courseNameOf(db: Db, courseId: string): Promise<string> {
  const rows = await courseName(db).all({ courseId });
  return rows[0]?.name ?? courseId;
}

/** What applying the club's list changed, and the events it implies (the member's notifications, their bookings reloaded once). */
export interface ClubBookingChanges {
  isChanged: boolean;
  /** Upcoming bookings gone from the club's list (cancelled there), as they were. */
  cancelled: BookingRow[];
  /** Bookings moved, or with other players (not only names spelled otherwise), as the club lists them now. */
  changed: ClubBooking[];
  events: DomainEvent[];
}

/**
 * The member's bookings as the club lists them, applied to Teebox's: new ones added, moved or
 * renamed ones changed, and upcoming ones gone at the club removed.
 */
export async function applyClubBookings(
  database: AppDatabase,
  input: {
    userId: number;
    atClub: ClubBooking[];
    ours: BookingRow[];
    /** When the club's page was read: rows made since are not on it yet. */
    readAt: number;
    today: string;
    displayName: (player: StoredPlayer) => string;
    playersFromClub: (booking: ClubBooking) => StoredPlayer[];
  },
): Promise<ClubBookingChanges> {
  const { userId, atClub, ours, readAt, today } = input;
  let isChanged = false;
  const cancelled: BookingRow[] = [];
  const changed: ClubBooking[] = [];
  await database.transaction(async (tx) => {
    for (const clubBooking of atClub) {
      const row = ours.find((b) => b.bookingRef === clubBooking.ref);
      if (!row) {
        const inserted = await tx
          .insert(bookings)
          .values({
            userId,
            bookingRef: clubBooking.ref,
            courseId: clubBooking.course,
            playDate: clubBooking.date,
            time: clubBooking.time,
            players: input.playersFromClub(clubBooking),
            requestId: null,
            createdAt: readAt,
          })
          .onConflictDoNothing()
          .returning({ id: bookings.id });
        isChanged ||= inserted.length > 0;
        continue;
      }
      const isMoved = row.playDate !== clubBooking.date || row.time !== clubBooking.time || row.courseId !== clubBooking.course;
      const isRenamed = nameKey(row.players.map(input.displayName)) !== nameKey(clubBooking.players.map((p) => p.name));
      if (isMoved || isRenamed) {
        const updated = await tx
          .update(bookings)
          .set({ playDate: clubBooking.date, time: clubBooking.time, courseId: clubBooking.course, ...(isRenamed ? { players: input.playersFromClub(clubBooking) } : {}) })
          .where(eq(bookings.id, row.id))
          .returning({ id: bookings.id });
        isChanged = true;
        const isOtherFlight = flightKey(row.players.map((p) => p.memberId)) !== flightKey(clubBooking.players.map((p) => p.id));
        if (updated.length > 0 && (isMoved || isOtherFlight)) changed.push(clubBooking);
      }
    }
    // Gone at the club: cancelled there. Only rows older than this read (a booking made while the
    // page was being read is not on it yet), and only upcoming ones (the club may drop past ones).
    const refsAtClub = new Set(atClub.map((b) => b.ref));
    for (const row of ours) {
      if (refsAtClub.has(row.bookingRef) || row.playDate < today || row.createdAt >= readAt) continue;
      const deleted = await tx
        .delete(bookings)
        .where(and(eq(bookings.id, row.id), lt(bookings.createdAt, readAt)))
        .returning({ id: bookings.id });
      isChanged = true;
      // Only a row this read removed: one an edit in Teebox removed meanwhile was not cancelled at the club.
      if (deleted.length > 0) cancelled.push(row);
    }
  });
  const events: DomainEvent[] = [];
  const { db } = database;
  for (const row of cancelled)
    events.push({ type: "club_booking_cancelled", userId, ref: row.bookingRef, course: await courseNameOf(db, row.courseId), date: row.playDate, time: row.time });
  for (const booking of changed)
    events.push({ type: "club_booking_changed", userId, ref: booking.ref, course: await courseNameOf(db, booking.course), date: booking.date, time: booking.time, readAt });
  // One reload of the member's bookings for the whole list, whatever it changed.
  if (isChanged) events.push({ type: "club_bookings_synced", userId });
  return { isChanged, cancelled, changed, events };
}

/** A member's booking by its club reference, cancelled (at the club first, by the caller). */
export async function removeBookingByRef(db: Db, userId: number, ref: string): Promise<void> {
  await db.delete(bookings).where(and(eq(bookings.userId, userId), eq(bookings.bookingRef, ref)));
}
