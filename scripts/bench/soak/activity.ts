/**
 * What the club's members and its admin do in a simulated day, drawn from the soak's seeded
 * generator (a run is repeatable): requests made, edited and cancelled; watches made and
 * cancelled; bookings cancelled in Teebox and on the club's own site; slots freed at the club;
 * pages read, the scraper asked for; one admin edit. Every answer Teebox gives is written in the
 * ledger exactly as the member was told it, and only what Teebox accepted is held against it.
 */
import { CART_CHOICES, CLUB_COURSES, GUEST_FEE_CHOICES } from "../../../src/club-sim/demo-data.ts";
import type { SimBooking } from "../../../src/club-sim/state.ts";
import { isPopularByDefault } from "../../../src/club-sim/rivals.ts";
import { isCourseOpenOn, teeTimesFor } from "../../../src/club-sim/tee-sheet.ts";
import { addDays, weekdayOf } from "../../../src/domain/manila-time.ts";
import type { ServerMessage } from "../../../src/realtime/messages.ts";
import type { Ledger } from "./invariants.ts";
import type { Client, Member } from "./members.ts";
import type { ClubHandle } from "./processes.ts";
import type { TeeboxSnapshot } from "./teebox-db.ts";

/** How much a day holds, as shares of the members or counts. */
export interface ActivityMix {
  /** Share of members who make a request each day. */
  requestShare: number;
  /** Share of open (pending) requests edited, and cancelled, each day. */
  editShare: number;
  cancelShare: number;
  /** Members who make a watch on a watch day (Monday to Thursday, for a date one or two days ahead). */
  watchesPerDay: number;
  /** Share of active watches cancelled each day. */
  watchCancelShare: number;
  /** Confirmed bookings cancelled by their member in Teebox, and on the club's own site, each day. */
  memberCancelsPerDay: number;
  clubCancelsPerDay: number;
  /** Slots freed at the club on the watched dates (a cancellation by someone outside Teebox). */
  freedSlotsPerDay: number;
  /** Members who open the app and read a few pages. */
  readersPerDay: number;
}

export const DEFAULT_MIX: ActivityMix = {
  requestShare: 0.12,
  editShare: 0.05,
  cancelShare: 0.03,
  watchesPerDay: 4,
  watchCancelShare: 0.2,
  memberCancelsPerDay: 2,
  clubCancelsPerDay: 1,
  freedSlotsPerDay: 3,
  readersPerDay: 12,
};

/** What the day's activity did, for the report. */
export interface ActivityCounts {
  requests: number;
  refused: number;
  edits: number;
  cancels: number;
  watches: number;
  watchCancels: number;
  memberBookingCancels: number;
  clubBookingCancels: number;
  freedSlots: number;
  reads: number;
  adminEdits: number;
}

export const noActivity = (): ActivityCounts => ({
  requests: 0,
  refused: 0,
  edits: 0,
  cancels: 0,
  watches: 0,
  watchCancels: 0,
  memberBookingCancels: 0,
  clubBookingCancels: 0,
  freedSlots: 0,
  reads: 0,
  adminEdits: 0,
});

/** Tee times filled at the club for a watch to wait on. */
export interface WatchBand {
  date: string;
  courseId: string;
  times: string[];
}

export interface World {
  rand(): number;
  /** The bands watches were made for (the soak frees their slots, as cancellations would). */
  watchBands: WatchBand[];
  members: Member[];
  admin: Client;
  club: ClubHandle;
  ledger: Ledger;
  counts: ActivityCounts;
  /** Things a member was told that do not fit the ledger (an unexpected answer): reported, not fatal. */
  surprises: string[];
  /** Simulated now (the shared clock). */
  now(): number;
}

/** One thing a member or the admin does; the day runs them a few at a time. */
export type Task = () => Promise<void>;

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const shuffled = <T>(rand: () => number, list: readonly T[]): T[] => {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};

export const coursesOpenOn = (date: string) => CLUB_COURSES.filter((c) => isCourseOpenOn(c, date));

/** Three or four times of the club's grid for that day and course, mostly the popular early ones. */
function wantedTimes(rand: () => number, date: string, courseId: string): string[] {
  const grid = teeTimesFor(date, CLUB_COURSES.find((c) => c.id === courseId)!);
  const popular = grid.filter((t) => isPopularByDefault(t));
  const count = 3 + Math.floor(rand() * 2);
  const wanted = new Set<string>();
  while (wanted.size < Math.min(count, grid.length)) wanted.add(rand() < 0.7 && popular.length > 0 ? pick(rand, popular) : pick(rand, grid));
  return [...wanted];
}

function submission(rand: () => number, date: string, courseId: string, times: string[], editTarget?: number) {
  const withGuest = rand() < 0.3;
  return {
    course: courseId,
    targetDate: date,
    selectionOrder: times.map((time) => ({ time, slotId: null })),
    memberCartType: CART_CHOICES[0],
    playerDetails: {
      players: withGuest
        ? [{ type: "Guest", firstName: "Guest", lastName: `Of ${date}`, cartType: { [CART_CHOICES[1]]: true }, chargeFeesTo: { [GUEST_FEE_CHOICES[0]]: true } }]
        : [],
    },
    ...(editTarget === undefined ? {} : { editTarget }),
  };
}

/** Dates a member already has something for (a request not failed, a booking, a watch): never asked twice. */
function takenDates(snapshot: TeeboxSnapshot, ledger: Ledger, member: Member): Set<string> {
  const taken = new Set<string>();
  const statusOf = new Map(snapshot.requests.map((r) => [r.id, r.status]));
  for (const request of ledger.requests.values()) {
    if (request.userId !== member.userId || request.isCancelled) continue;
    const status = statusOf.get(request.id);
    if (status !== "failed" && status !== "cancelled") taken.add(request.playDate);
  }
  for (const booking of snapshot.bookings) if (booking.userId === member.userId) taken.add(booking.playDate);
  for (const watch of snapshot.watches) if (watch.userId === member.userId && watch.status === "watching") taken.add(watch.playDate);
  return taken;
}

const isAnswer = (message: ServerMessage, type: ServerMessage["type"]) => message.type === type;

async function submitRequest(world: World, member: Member, date: string): Promise<void> {
  const course = pick(world.rand, coursesOpenOn(date)).id;
  const times = wantedTimes(world.rand, date, course);
  const answer = await member.client.act("SUBMIT_BOOKING_REQUEST", submission(world.rand, date, course, times));
  if (!isAnswer(answer, "submissionResult")) {
    world.counts.refused++;
    return;
  }
  // The answer names no id: the member's list shows the new request.
  const listed = await member.client.ok<{ id: number; play_date: string; course: string; times: string[] }[]>("GET", `/v1/my/requests?_=${Date.now()}`);
  const mine = listed.filter((r) => r.play_date === date && r.course === course && r.times.join(",") === times.join(",") && !world.ledger.requests.has(r.id));
  const id = Math.max(...mine.map((r) => r.id));
  if (!Number.isFinite(id)) {
    world.surprises.push(`${member.client.username}: a request for ${date} was accepted and is not in their list`);
    return;
  }
  world.ledger.requests.set(id, { id, userId: member.userId, playDate: date, courseId: course, times, isCancelled: false });
  world.counts.requests++;
}

async function editRequest(world: World, member: Member, id: number): Promise<void> {
  const asked = world.ledger.requests.get(id)!;
  const times = shuffled(
    world.rand,
    [...asked.times, ...wantedTimes(world.rand, asked.playDate, asked.courseId)].filter((t, i, all) => all.indexOf(t) === i),
  ).slice(0, 4);
  const answer = await member.client.act("SUBMIT_BOOKING_REQUEST", submission(world.rand, asked.playDate, asked.courseId, times, id));
  if (!isAnswer(answer, "submissionResult")) return;
  asked.times = times;
  world.counts.edits++;
}

async function cancelRequest(world: World, member: Member, id: number): Promise<void> {
  const answer = await member.client.act("CANCEL_REQUEST", { id });
  if (!isAnswer(answer, "ack")) return;
  const asked = world.ledger.requests.get(id)!;
  asked.isCancelled = true;
  asked.cancelledAtMs = world.now();
  world.counts.cancels++;
}

/**
 * A member watches a band of four tee times that is full at the club (the band is filled first, as
 * other golfers would have): the watch waits until a slot of it is freed there.
 */
async function makeWatch(world: World, member: Member, date: string, clubBookings: SimBooking[], ours: Set<string>): Promise<void> {
  const course = pick(world.rand, coursesOpenOn(date)).id;
  const grid = teeTimesFor(date, CLUB_COURSES.find((c) => c.id === course)!).filter((t) => t >= "06:00" && t <= "10:00");
  if (grid.length < 4) return;
  const first = Math.floor(world.rand() * (grid.length - 3));
  const band = grid.slice(first, first + 4);
  for (const time of band) {
    const holder = clubBookings.find((b) => b.date === date && b.courseId === course && b.time === time);
    if (!holder) await world.club.control("POST", "/slot", { date, course, time, status: "BOOKED" });
    else if (ours.has(holder.email)) return;
  }
  const body = {
    course,
    targetDate: date,
    memberCartType: CART_CHOICES[0],
    playerDetails: { players: [] },
    fromTime: band[0],
    toTime: band[3],
    mode: world.rand() < 0.75 ? "book" : "notify",
  };
  const answer = await member.client.call("POST", "/v1/my/watches", body);
  if (answer.status !== 201) return;
  world.counts.watches++;
  world.watchBands.push({ date, courseId: course, times: band });
}

async function cancelWatch(world: World, member: Member, id: number): Promise<void> {
  const answer = await member.client.call("POST", `/v1/my/watches/${id}/cancel`, {});
  if (answer.status === 204) world.counts.watchCancels++;
}

async function cancelBookingInTeebox(world: World, member: Member, ref: string): Promise<void> {
  const answer = await member.client.act("CANCEL_CONFIRMED_BOOKING", { bookingId: ref });
  if (!isAnswer(answer, "ack")) return;
  world.ledger.cancelledByMembers.add(ref);
  world.counts.memberBookingCancels++;
}

/** A member cancels on the club's own site: the club frees the slot, Teebox hears of it at its next sync. */
async function cancelBookingAtClub(world: World, booking: SimBooking): Promise<void> {
  const { freedRef } = await world.club.control<{ freedRef: string | null }>("POST", "/free-slot", { date: booking.date, course: booking.courseId, time: booking.time });
  if (freedRef !== booking.ref) return;
  world.ledger.cancelledAtClub.add(booking.ref);
  world.counts.clubBookingCancels++;
}

/** Someone outside Teebox cancels a watched time: the slot is free for the watches to find. */
async function freeWatchedSlot(world: World, band: WatchBand, clubBookings: SimBooking[], ours: Set<string>): Promise<void> {
  const time = pick(world.rand, band.times);
  const holder = clubBookings.find((b) => b.date === band.date && b.courseId === band.courseId && b.time === time);
  if (holder && ours.has(holder.email)) return;
  // A watch may have booked the slot since the day began: then this is a cancellation at the club
  // of one of ours, and Teebox must hear of it at its next sync.
  const { freedRef } = await world.club.control<{ freedRef: string | null }>("POST", "/free-slot", { date: band.date, course: band.courseId, time });
  if (freedRef) world.ledger.cancelledAtClub.add(freedRef);
  world.counts.freedSlots++;
}

const READ_PATHS = ["/v1/tee-times", "/v1/my/bookings", "/v1/my/requests", "/v1/my/watches", "/v1/advisories", "/v1/my/notifications", "/v1/system/rules"];

async function readPages(world: World, member: Member): Promise<void> {
  for (const path of shuffled(world.rand, READ_PATHS).slice(0, 3)) {
    const answer = await member.client.call("GET", `${path}?_=${Date.now()}`);
    if (answer.status !== 200) world.surprises.push(`${member.client.username} GET ${path}: ${answer.status}`);
    world.counts.reads++;
  }
  if (world.rand() < 0.1) await member.client.act("RUN_SCRAPER", undefined);
}

/** Who the admin disabled yesterday (their requests are held meanwhile); enabled again first thing. */
export interface AdminState {
  disabledUserId: number | null;
}

async function enableAgain(world: World, state: AdminState): Promise<void> {
  if (state.disabledUserId === null) return;
  await world.admin.ok("PUT", `/v1/admin/users/${state.disabledUserId}`, { status: "active" });
  state.disabledUserId = null;
}

/**
 * One admin edit a day, in turn: the watch poll rate, an announcement, a text, and every fourth day
 * a member disabled until the next day's first task (their requests are held at a release meanwhile).
 */
async function adminEdit(world: World, day: number, state: AdminState): Promise<void> {
  const admin = world.admin;
  switch (day % 4) {
    case 0: {
      const { settings } = await admin.ok<{ settings: Record<string, unknown> }>("GET", "/v1/admin/app-settings");
      await admin.ok("PUT", "/v1/admin/app-settings", { ...settings, watch_poll_seconds: 30 + Math.floor(world.rand() * 90) });
      break;
    }
    case 1: {
      const config = await admin.ok<{ frontpageMessages: { id: number }[] }>("GET", "/v1/admin/full-config");
      for (const old of config.frontpageMessages.slice(0, -2)) await admin.ok("DELETE", `/v1/admin/frontpage-messages/${old.id}`);
      await admin.ok("POST", "/v1/admin/frontpage-messages", { title: `Club news, day ${day}`, content: "Greens are fast this week. • Carts on paths only.", is_active: true });
      break;
    }
    case 2: {
      const { uiText } = await admin.ok<{ uiText: Record<string, string> }>("GET", "/v1/admin/app-settings");
      await admin.ok("PUT", "/v1/admin/ui-text", { ...uiText, "home.announcements": `Announcements (${day})` });
      break;
    }
    default: {
      const member = pick(world.rand, world.members);
      await admin.ok("PUT", `/v1/admin/users/${member.userId}`, { status: "disabled" });
      state.disabledUserId = member.userId;
    }
  }
  await admin.ok("GET", "/v1/admin/system-stats");
  world.counts.adminEdits++;
}

/** Before the first day: the requests for the first week's releases, as members had made them. */
export function planOpeningRequests(world: World, mix: ActivityMix, firstDay: string, releaseDaysBefore: number): Task[] {
  const tasks: Task[] = [];
  for (let k = 0; k < releaseDaysBefore; k++) {
    const date = addDays(firstDay, releaseDaysBefore + k);
    for (const member of world.members) if (world.rand() < mix.requestShare) tasks.push(() => submitRequest(world, member, date));
  }
  return tasks;
}

/**
 * The day's tasks in a seeded order. `today` is the simulated date; requests are made for the
 * dates released in the coming week, watches for the next two days (Monday to Thursday only, so
 * that by each weekend every watch has ended: the quiet after the last watch is measured too).
 */
export function planDay(
  world: World,
  mix: ActivityMix,
  day: number,
  today: string,
  snapshot: TeeboxSnapshot,
  clubBookings: SimBooking[],
  admin: AdminState,
  releaseDaysBefore: number,
): Task[] {
  const { rand, members, ledger } = world;
  const tasks: Task[] = [];
  const statusOf = new Map(snapshot.requests.map((r) => [r.id, r.status]));
  const memberOf = new Map(members.map((m) => [m.userId, m]));
  const ours = new Set(members.map((m) => m.account.email));

  for (const member of members) {
    if (rand() >= mix.requestShare) continue;
    const taken = takenDates(snapshot, ledger, member);
    const dates = Array.from({ length: releaseDaysBefore }, (_, k) => addDays(today, releaseDaysBefore + 1 + k)).filter((d) => !taken.has(d));
    if (dates.length > 0) {
      const date = pick(rand, dates);
      tasks.push(() => submitRequest(world, member, date));
    }
  }
  const pendingIds = [...ledger.requests.values()].filter((r) => !r.isCancelled && statusOf.get(r.id) === "pending" && r.playDate > addDays(today, releaseDaysBefore + 1));
  for (const request of pendingIds) {
    const member = memberOf.get(request.userId);
    if (!member) continue;
    const roll = rand();
    if (roll < mix.cancelShare) tasks.push(() => cancelRequest(world, member, request.id));
    else if (roll < mix.cancelShare + mix.editShare) tasks.push(() => editRequest(world, member, request.id));
  }

  const isWatchDay = weekdayOf(today) <= 4;
  if (isWatchDay) {
    for (const member of shuffled(rand, members).slice(0, mix.watchesPerDay)) {
      const date = addDays(today, 1 + Math.floor(rand() * 2));
      if (!takenDates(snapshot, ledger, member).has(date)) tasks.push(() => makeWatch(world, member, date, clubBookings, ours));
    }
  }
  for (const watch of snapshot.watches) {
    const member = memberOf.get(watch.userId);
    if (watch.status === "watching" && member && rand() < mix.watchCancelShare) tasks.push(() => cancelWatch(world, member, watch.id));
  }
  world.watchBands = world.watchBands.filter((b) => b.date > today);
  for (let i = 0; i < mix.freedSlotsPerDay && world.watchBands.length > 0; i++) {
    const band = pick(rand, world.watchBands);
    tasks.push(() => freeWatchedSlot(world, band, clubBookings, ours));
  }

  const ahead = shuffled(
    rand,
    snapshot.bookings.filter((b) => b.playDate > today && !ledger.cancelledByMembers.has(b.bookingRef) && !ledger.cancelledAtClub.has(b.bookingRef)),
  );
  for (const booking of ahead.slice(0, mix.memberCancelsPerDay)) {
    const member = memberOf.get(booking.userId);
    if (member) tasks.push(() => cancelBookingInTeebox(world, member, booking.bookingRef));
  }
  for (const booking of ahead.slice(mix.memberCancelsPerDay, mix.memberCancelsPerDay + mix.clubCancelsPerDay)) {
    const atClub = clubBookings.find((b) => b.ref === booking.bookingRef);
    if (atClub) tasks.push(() => cancelBookingAtClub(world, atClub));
  }

  for (const member of shuffled(rand, members).slice(0, mix.readersPerDay)) tasks.push(() => readPages(world, member));
  // The member disabled yesterday is enabled before anything else, and today's admin edit comes
  // last, so no member acts while disabled.
  return [() => enableAgain(world, admin), ...shuffled(rand, tasks), () => adminEdit(world, day, admin)];
}
