/**
 * The demo club's in-memory state and its booking rules. Every method that checks and
 * changes a slot is synchronous, so two booking posts for one slot can never both pass
 * the check: JS runs one of them to the end before the other starts.
 */
import { addDays, formatLongDate, isHhMm, isIsoDate, manilaDate, manilaInstant, minutesOf, manilaTimeOfDay } from "../domain/manila-time.ts";
import {
  CART_CHOICES,
  CLUB_DIRECTORY,
  DEMO_ADVISORIES,
  DEMO_CLUB_ACCOUNTS,
  GUEST_FEE_CHOICES,
  GUEST_PLAYER_TYPES,
  MAX_GUESTS,
  MAX_PLAYERS,
  MEMBER_FEE_CHOICES,
  MEMBER_PLAYER_TYPES,
  PLAYER_TYPES,
  type ClubAccount,
  type DirectoryEntry,
} from "./demo-data.ts";
import { createRandom, hashUnit } from "./random.ts";
import { findCourse, slotIdOf, teeTimesFor } from "./tee-sheet.ts";

export type SlotStatus = "AVAILABLE" | "BOOKED" | "BLOCKED";

export interface SimPlayer {
  type: string;
  firstName: string;
  lastName: string;
  memberId: string | null;
  cart: string;
  fee: string;
}

export interface SimBooking {
  ref: string;
  email: string;
  date: string;
  courseId: string;
  time: string;
  slotId: string;
  players: SimPlayer[];
  createdClubMs: number;
}

export type BookingOutcome =
  | "confirmed"
  | "slot_taken"
  | "not_yet_open"
  | "date_passed"
  | "too_many_players"
  | "too_many_guests"
  | "player_not_found"
  | "invalid"
  | "session_expired"
  | "server_error"
  | "down"
  /** Answered 429, 503 with Retry-After or a challenge page before the club did anything. */
  | "slowed_down";

export interface BookingAttemptRecord {
  slotId: string;
  date: string;
  time: string;
  course: string;
  /** Empty when the post carried no live session. */
  email: string;
  /** Club-clock time at which the post reached the club. */
  arrivedClubMs: number;
  /** How long it waited behind the club's own work, when a front door told when it came in (arrival.ts). */
  queuedMs?: number;
  outcome: BookingOutcome;
  ref: string | null;
  isRival: boolean;
}

export interface SimSession {
  id: string;
  email: string;
  csrf: string;
  lastSeenClubMs: number;
}

export interface SimAdvisory {
  id: number;
  title: string;
  eventDate: string | null;
  content: string;
}

export interface SlotView {
  time: string;
  slotId: string;
  status: SlotStatus;
}

export type BookingResult = { ok: true; booking: SimBooking } | { ok: false; outcome: Exclude<BookingOutcome, "confirmed">; message: string };

export interface BookingRequest {
  date: string;
  courseId: string;
  slotId: string;
  time: string;
  players: SimPlayer[];
}

/** When the club opens a play date: `releaseDaysBefore` days before it, at `releaseTime` (HH:mm, Manila). */
export interface ClubRelease {
  releaseTime: string;
  releaseDaysBefore: number;
}

export interface ClubStateOptions {
  seed: number;
  releaseDaysBefore: number;
  releaseTime: string;
  idleMinutes: number;
  /** Share of slots that were already taken by other members before anyone looks. */
  prebookedShare: number;
  blockedShare: number;
  accounts: ClubAccount[];
  /** How much later than announced every date really opens (a fault switch; 0 when on time). */
  openingDelayMs?: () => number;
}

interface SlotOverride {
  status: SlotStatus;
  ref: string | null;
}

const MAX_PENDING_LOGIN_FORMS = 10_000;
/** Booking posts kept in the attempt log; a benchmark's release makes a few thousand at most. */
export const MAX_ATTEMPT_RECORDS = 50_000;

const keyOf = (date: string, courseId: string, time: string) => `${date}|${courseId}|${time}`;

export class ClubState {
  readonly random: () => number;
  private readonly accounts = new Map<string, ClubAccount>();
  private readonly directory: DirectoryEntry[];
  private readonly overrides = new Map<string, SlotOverride>();
  private readonly bookings = new Map<string, SimBooking>();
  private readonly sessions = new Map<string, SimSession>();
  private readonly loginTokens = new Map<string, string>();
  private readonly advisories: SimAdvisory[] = [];
  private readonly attemptLog: BookingAttemptRecord[] = [];
  private nextRef: number;
  private nextAdvisoryId = 1;
  /** When a play date opens: days before it, at this Manila time (the club's own setting; it may change). */
  private releaseSetting: ClubRelease;

  constructor(readonly options: ClubStateOptions) {
    this.random = createRandom(options.seed);
    for (const account of [...DEMO_CLUB_ACCOUNTS, ...options.accounts]) this.accounts.set(account.email.toLowerCase(), account);
    const extraEntries: DirectoryEntry[] = options.accounts.map((a) => ({
      firstName: a.firstName,
      lastName: a.lastName,
      membershipNumber: a.membershipNumber,
      type: "Member",
    }));
    this.directory = [...CLUB_DIRECTORY, ...extraEntries];
    this.nextRef = 100000 + Math.floor(this.random() * 800000);
    this.releaseSetting = { releaseTime: options.releaseTime, releaseDaysBefore: options.releaseDaysBefore };
    for (const advisory of DEMO_ADVISORIES) this.addAdvisory(advisory);
  }

  /** The club's release setting now. */
  get release(): ClubRelease {
    return this.releaseSetting;
  }

  /** The club changes when dates open (the demo club follows Teebox's setting). */
  setRelease(release: ClubRelease): void {
    this.releaseSetting = { ...release };
  }

  // ── accounts and sessions ──────────────────────────────────────────────

  findAccount(email: string): ClubAccount | undefined {
    return this.accounts.get(email.trim().toLowerCase());
  }

  checkPassword(email: string, password: string): ClubAccount | null {
    const account = this.findAccount(email);
    return account && account.password === password ? account : null;
  }

  randomToken(): string {
    let token = "";
    for (let i = 0; i < 4; i++)
      token += Math.floor(this.random() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return token;
  }

  issueLoginToken(): { preId: string; token: string } {
    const preId = this.randomToken();
    const token = this.randomToken();
    // Forms that were opened but never posted must not grow without end in a long-running demo.
    if (this.loginTokens.size >= MAX_PENDING_LOGIN_FORMS) this.loginTokens.delete(this.loginTokens.keys().next().value ?? "");
    this.loginTokens.set(preId, token);
    return { preId, token };
  }

  isLoginTokenValid(preId: string | undefined, token: string | undefined): boolean {
    return !!preId && !!token && this.loginTokens.get(preId) === token;
  }

  openSession(email: string, clubNow: number, preId?: string): SimSession {
    if (preId) this.loginTokens.delete(preId);
    this.pruneIdleSessions(clubNow);
    const session: SimSession = { id: this.randomToken(), email: email.toLowerCase(), csrf: this.randomToken(), lastSeenClubMs: clubNow };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session for a cookie value, touched; null when missing or idle too long. */
  touchSession(id: string | undefined, clubNow: number): SimSession | null {
    if (!id) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    if (clubNow - session.lastSeenClubMs > this.options.idleMinutes * 60_000) {
      this.sessions.delete(id);
      return null;
    }
    session.lastSeenClubMs = clubNow;
    return session;
  }

  private pruneIdleSessions(clubNow: number): void {
    const idleMs = this.options.idleMinutes * 60_000;
    for (const [id, session] of this.sessions) if (clubNow - session.lastSeenClubMs > idleMs) this.sessions.delete(id);
  }

  closeSession(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  dropSession(id: string | undefined): void {
    this.closeSession(id);
  }

  dropAllSessions(): void {
    this.sessions.clear();
  }

  /** The member a session cookie belongs to, without touching the session (for counting requests). */
  emailOfSession(id: string | undefined): string | null {
    return id ? (this.sessions.get(id)?.email ?? null) : null;
  }

  // ── horizon ────────────────────────────────────────────────────────────

  /** The club-clock instant at which a play date opens for booking, as the club announces it. */
  releaseInstantOf(date: string): number {
    return manilaInstant(addDays(date, -this.releaseSetting.releaseDaysBefore), this.releaseSetting.releaseTime);
  }

  /** When it really opens: later than announced while the 'open late' fault is on. */
  opensAt(date: string): number {
    return this.releaseInstantOf(date) + (this.options.openingDelayMs?.() ?? 0);
  }

  isReleased(date: string, clubNow: number): boolean {
    return clubNow >= this.opensAt(date);
  }

  hasPassed(date: string, time: string | null, clubNow: number): boolean {
    const today = manilaDate(clubNow);
    if (date < today) return true;
    if (date > today || time === null) return false;
    return minutesOf(time) <= minutesOf(manilaTimeOfDay(clubNow).slice(0, 5));
  }

  // ── tee sheet ──────────────────────────────────────────────────────────

  slotStatus(date: string, courseId: string, time: string): SlotStatus {
    const override = this.overrides.get(keyOf(date, courseId, time));
    if (override) return override.status;
    const roll = hashUnit(this.options.seed, keyOf(date, courseId, time));
    if (roll < this.options.blockedShare) return "BLOCKED";
    if (roll < this.options.blockedShare + this.options.prebookedShare) return "BOOKED";
    return "AVAILABLE";
  }

  setSlotStatus(date: string, courseId: string, time: string, status: SlotStatus): void {
    this.overrides.set(keyOf(date, courseId, time), { status, ref: null });
  }

  /** Every slot of a course on a date; empty when the course is closed or the name unknown. */
  sheet(date: string, courseId: string): SlotView[] {
    const course = findCourse(courseId);
    if (!course || !isIsoDate(date)) return [];
    return teeTimesFor(date, course).map((time) => ({ time, slotId: slotIdOf(date, courseId, time), status: this.slotStatus(date, courseId, time) }));
  }

  // ── booking ────────────────────────────────────────────────────────────

  book(email: string, request: BookingRequest, clubNow: number): BookingResult {
    const { date, courseId, time, slotId } = request;
    const course = findCourse(courseId);
    const isKnownSlot = !!course && isIsoDate(date) && isHhMm(time) && slotIdOf(date, courseId, time) === slotId && teeTimesFor(date, course).includes(time);
    if (!isKnownSlot) return refuse("invalid", "The selected tee time does not exist.");
    if (this.hasPassed(date, time, clubNow)) return refuse("date_passed", "This tee time has already passed.");
    if (!this.isReleased(date, clubNow)) {
      const opens = this.releaseInstantOf(date);
      return refuse("not_yet_open", `This date is not yet open for booking. Booking opens ${formatLongDate(manilaDate(opens))} at ${this.releaseSetting.releaseTime}.`);
    }
    if (this.slotStatus(date, courseId, time) !== "AVAILABLE") return refuse("slot_taken", "Sorry, this tee time is no longer available.");
    const playersProblem = this.checkPlayers(request.players);
    if (playersProblem) return playersProblem;
    const booking: SimBooking = {
      ref: `SWB-${this.nextRef++}`,
      email: email.toLowerCase(),
      date,
      courseId,
      time,
      slotId,
      players: request.players.map(this.normalisePlayer),
      createdClubMs: clubNow,
    };
    this.bookings.set(booking.ref, booking);
    this.overrides.set(keyOf(date, courseId, time), { status: "BOOKED", ref: booking.ref });
    return { ok: true, booking };
  }

  editBooking(email: string, ref: string, players: SimPlayer[], clubNow: number): BookingResult | null {
    const booking = this.bookingOf(email, ref);
    if (!booking) return null;
    if (this.hasPassed(booking.date, booking.time, clubNow)) return refuse("date_passed", "This tee time has already passed.");
    const playersProblem = this.checkPlayers(players);
    if (playersProblem) return playersProblem;
    booking.players = players.map(this.normalisePlayer);
    return { ok: true, booking };
  }

  /** Removes the booking and frees its slot; null when the member has no such booking. */
  cancelBooking(email: string, ref: string): SimBooking | null {
    const booking = this.bookingOf(email, ref);
    if (!booking) return null;
    this.bookings.delete(ref);
    this.overrides.set(keyOf(booking.date, booking.courseId, booking.time), { status: "AVAILABLE", ref: null });
    return booking;
  }

  /**
   * Frees a slot as a cancellation at the club would: the booking holding it (whoever's) is
   * removed and the slot is AVAILABLE again. The freed booking's reference, or null.
   */
  freeSlot(date: string, courseId: string, time: string): string | null {
    const held = [...this.bookings.values()].find((b) => b.date === date && b.courseId === courseId && b.time === time);
    if (held) this.bookings.delete(held.ref);
    this.overrides.set(keyOf(date, courseId, time), { status: "AVAILABLE", ref: null });
    return held?.ref ?? null;
  }

  /** Every booking whose member's email ends with `suffix` (the rivals'). */
  bookingsEndingWith(suffix: string): SimBooking[] {
    return [...this.bookings.values()].filter((b) => b.email.endsWith(suffix));
  }

  bookingOf(email: string, ref: string): SimBooking | null {
    const booking = this.bookings.get(ref);
    return booking && booking.email === email.toLowerCase() ? booking : null;
  }

  bookingsOf(email: string): SimBooking[] {
    const mine = [...this.bookings.values()].filter((b) => b.email === email.toLowerCase());
    return mine.sort((a, b) => (a.date + a.time).localeCompare(b.date + b.time));
  }

  /** Every booking the club holds, of every member, in date and time order. */
  allBookings(): SimBooking[] {
    return [...this.bookings.values()].sort((a, b) => (a.date + a.time + a.courseId).localeCompare(b.date + b.time + b.courseId));
  }

  recordAttempt(record: BookingAttemptRecord): void {
    this.attemptLog.push(record);
    // A demo club left running for months inside Teebox keeps the recent posts only (dropped a
    // tenth at a time, so a full log does not shift the whole array on every post).
    if (this.attemptLog.length > MAX_ATTEMPT_RECORDS * 1.1) this.attemptLog.splice(0, this.attemptLog.length - MAX_ATTEMPT_RECORDS);
  }

  attempts(): BookingAttemptRecord[] {
    return this.attemptLog.map((a) => ({ ...a }));
  }

  // ── advisories ─────────────────────────────────────────────────────────

  addAdvisory(input: { title: string; eventDate?: string | null; content: string }): SimAdvisory {
    const advisory: SimAdvisory = { id: this.nextAdvisoryId++, title: input.title, eventDate: input.eventDate ?? null, content: input.content };
    this.advisories.push(advisory);
    return advisory;
  }

  clearAdvisories(): void {
    this.advisories.length = 0;
  }

  listAdvisories(): SimAdvisory[] {
    return [...this.advisories];
  }

  // ── players ────────────────────────────────────────────────────────────

  private checkPlayers(players: SimPlayer[]): Extract<BookingResult, { ok: false }> | null {
    if (players.length === 0) return refuse("invalid", "Add at least one player.");
    if (players.length > MAX_PLAYERS) return refuse("too_many_players", `A flight may include at most ${MAX_PLAYERS} players.`);
    const guests = players.filter((p) => GUEST_PLAYER_TYPES.includes(p.type)).length;
    if (guests > MAX_GUESTS) return refuse("too_many_guests", `Too many guests: a flight may include at most ${MAX_GUESTS} guests.`);
    for (const player of players) {
      const problem = this.checkPlayer(player);
      if (problem) return problem;
    }
    return null;
  }

  private checkPlayer(player: SimPlayer): Extract<BookingResult, { ok: false }> | null {
    if (!(PLAYER_TYPES as readonly string[]).includes(player.type)) return refuse("invalid", `Unknown player type: ${player.type}.`);
    if (!(CART_CHOICES as readonly string[]).includes(player.cart)) return refuse("invalid", `Unknown cart choice: ${player.cart}.`);
    const isMember = MEMBER_PLAYER_TYPES.includes(player.type);
    const fees: readonly string[] = isMember ? MEMBER_FEE_CHOICES : GUEST_FEE_CHOICES;
    if (!fees.includes(player.fee)) return refuse("invalid", `Unknown fee choice: ${player.fee}.`);
    if (!player.lastName.trim()) return refuse("invalid", "Every player needs a last name.");
    if (isMember) {
      if (!this.findDirectoryEntry(player.lastName, player.memberId ?? "")) {
        return refuse("player_not_found", `Player not found: ${player.lastName.trim()} (${(player.memberId ?? "").trim() || "no membership number"}).`);
      }
    } else if (!player.firstName.trim()) {
      return refuse("invalid", "Every guest needs a first name.");
    }
    return null;
  }

  findDirectoryEntry(lastName: string, membershipNumber: string): DirectoryEntry | undefined {
    const last = lastName.trim().toLowerCase();
    const id = membershipNumber.trim().toUpperCase();
    return this.directory.find((e) => e.lastName.toLowerCase() === last && e.membershipNumber === id);
  }

  /** Members are stored under their directory name, as a real club would show them. */
  private normalisePlayer = (player: SimPlayer): SimPlayer => {
    if (!MEMBER_PLAYER_TYPES.includes(player.type)) return { ...player, firstName: player.firstName.trim(), lastName: player.lastName.trim(), memberId: null };
    const entry = this.findDirectoryEntry(player.lastName, player.memberId ?? "");
    return entry ? { ...player, firstName: entry.firstName, lastName: entry.lastName, memberId: entry.membershipNumber } : player;
  };
}

function refuse(outcome: Exclude<BookingOutcome, "confirmed">, message: string): Extract<BookingResult, { ok: false }> {
  return { ok: false, outcome, message };
}
