/**
 * The member's private calendar address and the iCalendar feed it serves: confirmed bookings at
 * their tee times and pending requests at their release instants, all in Manila time.
 *
 * The token (32 random bytes) is the credential of a feed no cookie reaches. It is looked up by its
 * SHA-256 and the stored hash compared again in constant time; the token itself is kept only
 * sealed (for the Profile page to show again), never logged. A new address replaces the row, so
 * the old token finds nothing from that moment on.
 */
import { randomBytes } from "../../lib/random.ts";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { bookingRequests, bookings, calendarFeeds, courses, uiText, users, type StoredPlayer } from "../../db/schema.ts";
import { formatReleaseAt } from "../../domain/format.ts";
import { formatEventDate, manilaDate, manilaTimeOfDay, normaliseTime, parseBookingDate } from "../../domain/manila-time.ts";
import { DEFAULT_UI_TEXT, type UiTextKey } from "../../domain/ui-text/index.ts";
import { fixedOffsetTimezone, localStamp, raw, text, utcStamp, writeIcal, type IcalComponent } from "../../lib/ical.ts";
import { FEED_FILE_PATTERN, type CalendarAddress } from "./calendar.schemas.ts";
import { partnerBookingsOf } from "../../services/partners.ts";

export const MANILA_TZID = "Asia/Manila";
const PRODID = "-//Teebox//Tee times//EN";
/** How long a tee time's event lasts in the calendar: about an 18-hole round. */
const ROUND = "PT4H30M";
/** A release is a moment; a short event keeps it visible in every calendar app. */
const RELEASE_SPAN = "PT15M";
type BookingRow = typeof bookings.$inferSelect;
const WAITING_STATUSES = ["pending", "held", "needs_attention"] as const;

const hashOf = (token: string) => new Bun.CryptoHasher("sha256").update(token, "utf8").digest("hex");

function addressOf(origin: string, token: string): string {
  return `${origin.replace(/\/$/, "")}/v1/calendar/${token}.ics`;
}

/** The member's address, or nulls when none was made (or it was sealed under another key). */
/** What the calendar address calls use of the app. */
export type CalendarDeps = Pick<AppDeps, "database" | "clock" | "logger" | "secretBox">;

export async function readAddress(deps: CalendarDeps, userId: number, origin: string): Promise<CalendarAddress> {
  const rows = await deps.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
  if (!rows[0]) return { url: null, createdAt: null };
  try {
    return { url: addressOf(origin, deps.secretBox.open(rows[0].tokenSealed)), createdAt: rows[0].createdAt };
  } catch {
    return { url: null, createdAt: null };
  }
}

/** A new address; the member's old one (if any) stops working in the same write. */
export async function renewAddress(deps: CalendarDeps, userId: number, origin: string): Promise<CalendarAddress> {
  const token = randomBytes(32).toString("base64url");
  const now = deps.clock.now();
  const row = { tokenHash: hashOf(token), tokenSealed: deps.secretBox.seal(token), createdAt: now };
  await deps.database.db
    .insert(calendarFeeds)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: row });
  deps.logger.info("calendar address made", { userId });
  return { url: addressOf(origin, token), createdAt: now };
}

/** The active member a feed file name belongs to; null for a malformed, unknown or replaced token. */
export async function memberOfFeed(db: Db, file: string): Promise<number | null> {
  const match = FEED_FILE_PATTERN.exec(file);
  if (!match) return null;
  const wanted = Buffer.from(hashOf(match[1]), "hex");
  const rows = await db
    .select({ userId: calendarFeeds.userId, tokenHash: calendarFeeds.tokenHash, status: users.status })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, wanted.toString("hex")))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const stored = Buffer.from(row.tokenHash, "hex");
  if (stored.length !== wanted.length || !crypto.timingSafeEqual(stored, wanted)) return null;
  return row.status === "active" ? row.userId : null;
}

const fill = (template: string, context: Record<string, string>) => template.replace(/\{(\w+)\}/g, (whole, name: string) => context[name] ?? whole);

const playerName = (p: StoredPlayer) =>
  [p.firstName, p.lastName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(" ") || p.memberId;

/** The member's feed as iCalendar text, its words from the editable UI text. */
export async function feedOf(db: Db, userId: number, now: number): Promise<string> {
  const feedKeys = Object.keys(DEFAULT_UI_TEXT).filter((k) => k.startsWith("calendar.feed.")) as UiTextKey[];
  const overrides = await db.select().from(uiText).where(inArray(uiText.key, feedKeys));
  const texts = new Map(overrides.map((r) => [r.key, r.value]));
  const say = (key: UiTextKey, context: Record<string, string> = {}) => fill(texts.get(key) || DEFAULT_UI_TEXT[key], context);
  const courseRows = await db.select({ id: courses.id, name: courses.name }).from(courses);
  const courseName = (id: string) => courseRows.find((c) => c.id === id)?.name ?? id;
  /** A booked game as an event, its summary in the words given; null when its date or time cannot be read. */
  const bookingEvent = (b: BookingRow, uid: string, summary: (fields: { course: string; time: string; date: string }) => string): IcalComponent | null => {
    const date = parseBookingDate(b.playDate);
    const time = normaliseTime(b.time);
    if (!date || !time) return null;
    const course = courseName(b.courseId);
    return {
      name: "VEVENT",
      properties: [
        text("UID", uid),
        raw("DTSTAMP", utcStamp(b.createdAt)),
        raw("DTSTART", localStamp(date, time), { TZID: MANILA_TZID }),
        raw("DURATION", ROUND),
        text("SUMMARY", summary({ course, time, date: formatEventDate(date) })),
        text("DESCRIPTION", say("calendar.feed.booking_description", { ref: b.bookingRef, players: b.players.map(playerName).join(", ") })),
        text("LOCATION", course),
        raw("STATUS", "CONFIRMED"),
      ],
    };
  };

  const booked = await db.select().from(bookings).where(eq(bookings.userId, userId)).orderBy(asc(bookings.playDate), asc(bookings.time));
  const waiting = await db
    .select()
    .from(bookingRequests)
    .where(and(eq(bookingRequests.userId, userId), inArray(bookingRequests.status, [...WAITING_STATUSES])))
    .orderBy(asc(bookingRequests.releaseAt), asc(bookingRequests.id));

  // The games the member plays in as a partner who accepted (decision 200), read only for them.
  const asPartner = await partnerBookingsOf(db, userId, "0000-00-00");

  const events: IcalComponent[] = [];
  for (const { booking, organiser } of asPartner) {
    const event = bookingEvent(booking, `partner-${booking.userId}-${booking.bookingRef}@teebox`, (fields) => say("calendar.feed.partner_summary", { ...fields, organiser }));
    if (event) events.push(event);
  }
  for (const booking of booked) {
    const event = bookingEvent(booking, `booking-${booking.bookingRef}@teebox`, (fields) => say("calendar.feed.booking_summary", fields));
    if (event) events.push(event);
  }
  for (const r of waiting) {
    const course = courseName(r.courseId);
    events.push({
      name: "VEVENT",
      properties: [
        text("UID", `release-${r.id}@teebox`),
        raw("DTSTAMP", utcStamp(r.updatedAt)),
        raw("DTSTART", localStamp(manilaDate(r.releaseAt), manilaTimeOfDay(r.releaseAt).slice(0, 5)), { TZID: MANILA_TZID }),
        raw("DURATION", RELEASE_SPAN),
        text("SUMMARY", say("calendar.feed.release_summary", { course, date: formatEventDate(r.playDate), release: formatReleaseAt(r.releaseAt) })),
        text("DESCRIPTION", say("calendar.feed.release_description", { times: r.selection.map((s) => s.time).join(", ") })),
        raw("STATUS", "TENTATIVE"),
      ],
    });
  }
  return writeIcal({
    name: "VCALENDAR",
    properties: [
      raw("PRODID", PRODID),
      raw("VERSION", "2.0"),
      raw("CALSCALE", "GREGORIAN"),
      raw("METHOD", "PUBLISH"),
      text("X-WR-CALNAME", say("calendar.feed.name")),
      raw("X-WR-TIMEZONE", MANILA_TZID),
      raw("X-PUBLISHED-TTL", "PT1H"),
      raw("LAST-MODIFIED", utcStamp(now)),
    ],
    components: [fixedOffsetTimezone(MANILA_TZID, "+0800", "PHT"), ...events],
  });
}
