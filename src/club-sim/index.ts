/**
 * The demo club: a real HTTP server (its own Hono app on its own loopback port) that
 * behaves like the club's member booking portal. Teebox starts it when no CLUB_URL is
 * set; tests and benchmarks start it on demand. All state is in memory.
 */
import { Hono } from "hono";
import { isHhMm } from "../domain/manila-time.ts";
import { systemClock, type Clock } from "../lib/clock.ts";
import { arrivalOf, type Arrival } from "./arrival.ts";
import { createControlRoutes } from "./control.ts";
import { CLUB_IDLE_MINUTES, CLUB_RELEASE_DAYS_BEFORE, CLUB_RELEASE_TIME, generateAccounts, type ClubAccount } from "./demo-data.ts";
import { faultMiddleware, mergeFaults, NO_FAULTS, type ClubFaults, type ClubFaultsInput } from "./faults.ts";
import { createRivals, type Rivals, type RivalsOptions } from "./rivals.ts";
import { createMemberRoutes, recordBookingPost, SESSION_COOKIE, type SimRuntime } from "./routes.ts";
import { createTrafficCounter, type TrafficCount } from "./traffic.ts";
import { ClubState, type BookingAttemptRecord, type ClubRelease, type SimAdvisory, type SimBooking, type SlotStatus } from "./state.ts";

export type { BookingAttemptRecord, ClubRelease, SimBooking, SlotStatus, SimAdvisory } from "./state.ts";
export type { ClubFaults, ClubFaultsInput } from "./faults.ts";
export type { RivalsOptions } from "./rivals.ts";
export type { TrafficCount, TrafficKind } from "./traffic.ts";
export { CONTROL_TOKEN_HEADER } from "./control.ts";

export interface ClubSimOptions {
  seed?: number;
  /** Our clock; the club's clock is this plus `clockOffsetMs`. */
  clock?: Clock;
  clockOffsetMs?: number;
  releaseDaysBefore?: number;
  releaseTime?: string;
  idleMinutes?: number;
  /** Rivals, or several groups of them (each with its own delay and share). */
  rivals?: RivalsOptions | RivalsOptions[];
  faults?: ClubFaultsInput;
  /** More member accounts (a count uses generateAccounts). */
  extraAccounts?: number | ClubAccount[];
  /** Share of slots already booked by other members (default 0.1) and blocked by the club (default 0.02). */
  prebookedShare?: number;
  blockedShare?: number;
  controlToken?: string;
}

export interface RunningClubSim {
  url: string;
  stop(): Promise<void>;
}

export interface ClubSim {
  app: Hono;
  controlToken: string;
  start(port?: number, hostname?: string): Promise<RunningClubSim>;
  faults(): ClubFaults;
  setFaults(input: ClubFaultsInput): ClubFaults;
  clockOffsetMs(): number;
  setClockOffset(ms: number): void;
  /** The club's clock. */
  now(): number;
  /** The club-clock instant at which a play date opens for booking, as announced (the 'open late' fault moves the real one later). */
  releaseInstantOf(date: string): number;
  /** When the club opens dates now. */
  release(): ClubRelease;
  /** Changes when the club opens dates (the demo club follows Teebox's release settings); the rivals follow. */
  setRelease(release: ClubRelease): ClubRelease;
  attempts(): BookingAttemptRecord[];
  bookingsOf(email: string): SimBooking[];
  /** Every booking the club holds, of every member. */
  allBookings(): SimBooking[];
  /** The requests the club answered since the last take, by minute, kind and member; then forgotten. */
  takeTraffic(): TrafficCount[];
  setSlotStatus(date: string, course: string, time: string, status: SlotStatus): void;
  slotStatus(date: string, course: string, time: string): SlotStatus;
  freeSlot(date: string, course: string, time: string): string | null;
  addAdvisory(input: { title: string; eventDate?: string | null; content: string }): SimAdvisory;
  clearAdvisories(): void;
  dropAllSessions(): void;
  /** Lets the rivals take their share of a play date right now (needs the rivals option). */
  runRivals(date: string): string[];
  /** Stops the rivals' timer; `stop()` of a started server does this too. */
  close(): void;
}

/** HTTP dates have one-second resolution, as every real server's do. */
const httpDate = (ms: number) => new Date(ms).toUTCString();

export function createClubSim(options: ClubSimOptions = {}): ClubSim {
  const clock = options.clock ?? systemClock;
  const releaseTime = options.releaseTime ?? CLUB_RELEASE_TIME;
  if (!isHhMm(releaseTime)) throw new Error(`releaseTime must be HH:mm, got '${releaseTime}'`);
  const extra = typeof options.extraAccounts === "number" ? generateAccounts(options.extraAccounts) : (options.extraAccounts ?? []);
  // Declared before the state, which reads the opening delay from the current faults.
  let faults = mergeFaults(NO_FAULTS, options.faults ?? {});
  const state = new ClubState({
    openingDelayMs: () => faults.openLateMs,
    seed: options.seed ?? 1,
    releaseDaysBefore: options.releaseDaysBefore ?? CLUB_RELEASE_DAYS_BEFORE,
    releaseTime,
    idleMinutes: options.idleMinutes ?? CLUB_IDLE_MINUTES,
    prebookedShare: options.prebookedShare ?? 0.1,
    blockedShare: options.blockedShare ?? 0.02,
    accounts: extra,
  });
  let offsetMs = options.clockOffsetMs ?? 0;
  const clubNow = () => clock.now() + offsetMs;
  const traffic = createTrafficCounter({ clubNow, emailOfSession: (id) => state.emailOfSession(id), sessionCookie: SESSION_COOKIE });
  /** When each request reached the club, read when its booking post is logged (then dropped with the request). */
  const arrivals = new WeakMap<Request, Arrival>();
  const runtime: SimRuntime = { state, clubNow, faults: () => faults, arrivalOf: (request) => arrivals.get(request) };
  const rivalGroups = options.rivals === undefined ? [] : Array.isArray(options.rivals) ? options.rivals : [options.rivals];
  let rivals: Rivals[] = rivalGroups.map((group) => createRivals({ state, clock, clubNow, clockOffsetMs: () => offsetMs, options: group }));

  const sim: ClubSim = {
    app: new Hono(),
    controlToken: options.controlToken ?? crypto.randomUUID(),
    async start(port = 0, hostname = "127.0.0.1") {
      const server = Bun.serve({
        port,
        hostname,
        fetch(request, srv) {
          arrivals.set(request, arrivalOf(request, clubNow()));
          return sim.app.fetch(request, srv);
        },
      });
      return {
        url: `http://${hostname}:${server.port}`,
        async stop() {
          sim.close();
          await server.stop(true);
        },
      };
    },
    faults: () => faults,
    setFaults(input) {
      const wasLate = faults.openLateMs;
      faults = mergeFaults(faults, input);
      // The rivals act shortly after a date really opens: a new delay moves their next moment.
      if (faults.openLateMs !== wasLate) for (const group of rivals) group.reschedule();
      return faults;
    },
    clockOffsetMs: () => offsetMs,
    setClockOffset(ms) {
      offsetMs = ms;
      for (const group of rivals) group.reschedule();
    },
    now: clubNow,
    releaseInstantOf: (date) => state.releaseInstantOf(date),
    release: () => state.release,
    setRelease(release) {
      if (!isHhMm(release.releaseTime)) throw new Error(`releaseTime must be HH:mm, got '${release.releaseTime}'`);
      if (!Number.isInteger(release.releaseDaysBefore) || release.releaseDaysBefore < 0)
        throw new Error(`releaseDaysBefore must be a whole number of days, got ${release.releaseDaysBefore}`);
      state.setRelease(release);
      for (const group of rivals) group.reschedule();
      return state.release;
    },
    attempts: () => state.attempts(),
    bookingsOf: (email) => state.bookingsOf(email),
    allBookings: () => state.allBookings(),
    takeTraffic: () => traffic.take(),
    setSlotStatus: (date, course, time, status) => state.setSlotStatus(date, course, time, status),
    slotStatus: (date, course, time) => state.slotStatus(date, course, time),
    freeSlot: (date, course, time) => state.freeSlot(date, course, time),
    addAdvisory: (input) => state.addAdvisory(input),
    clearAdvisories: () => state.clearAdvisories(),
    dropAllSessions: () => state.dropAllSessions(),
    runRivals(date) {
      if (rivals.length === 0) throw new Error("runRivals needs the rivals option");
      return rivals.flatMap((group) => group.runFor(date));
    },
    close() {
      for (const group of rivals) group.stop();
      rivals = [];
    },
  };

  sim.app.use("*", async (c, next) => {
    await next();
    c.header("Date", httpDate(clubNow()));
    c.header("Cache-Control", "no-store");
  });
  sim.app.route("/__control", createControlRoutes(sim));
  // Counted before the faults, so a request a fault answered is in the club's record too.
  sim.app.use("*", traffic.middleware);
  sim.app.use(
    "*",
    faultMiddleware({
      faults: () => faults,
      random: state.random,
      onBookingFault: (outcome, form, request) => recordBookingPost(runtime, form, "", outcome, null, arrivals.get(request)),
    }),
  );
  sim.app.route("/", createMemberRoutes(runtime));
  sim.app.notFound((c) => c.html("<!DOCTYPE html><html><body><h1>404</h1><p>Page not found.</p></body></html>", 404));
  return sim;
}
