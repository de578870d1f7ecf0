/**
 * The control API under /__control: lets a benchmark or a test in another process flip
 * faults, move the club clock and read the attempt log. Loopback use only, and every call
 * needs the control token in the `x-control-token` header.
 */
import { Hono } from "hono";
import { z } from "zod";
import { isHhMm, isIsoDate } from "../domain/manila-time.ts";
import { faultsInputSchema, type ClubFaults, type ClubFaultsInput } from "./faults.ts";
import type { BookingAttemptRecord, ClubRelease, SimBooking, SlotStatus } from "./state.ts";
import type { TrafficCount } from "./traffic.ts";

export const CONTROL_TOKEN_HEADER = "x-control-token";

export interface ControlTarget {
  controlToken: string;
  faults(): ClubFaults;
  setFaults(input: ClubFaultsInput): ClubFaults;
  clockOffsetMs(): number;
  setClockOffset(ms: number): void;
  now(): number;
  attempts(): BookingAttemptRecord[];
  bookingsOf(email: string): SimBooking[];
  allBookings(): SimBooking[];
  takeTraffic(): TrafficCount[];
  setSlotStatus(date: string, course: string, time: string, status: SlotStatus): void;
  /** Frees a slot as a member's cancellation would; the cancelled booking's reference, or null. */
  freeSlot(date: string, course: string, time: string): string | null;
  addAdvisory(input: { title: string; eventDate?: string | null; content: string }): unknown;
  clearAdvisories(): void;
  dropAllSessions(): void;
  release(): ClubRelease;
  setRelease(release: ClubRelease): ClubRelease;
}

const slotSchema = z.object({
  date: z.string().refine(isIsoDate, "date must be YYYY-MM-DD"),
  course: z.string().min(1),
  time: z.string().refine(isHhMm, "time must be HH:mm"),
  status: z.enum(["AVAILABLE", "BOOKED", "BLOCKED"]),
});
const freeSlotSchema = z.object({
  date: z.string().refine(isIsoDate, "date must be YYYY-MM-DD"),
  course: z.string().min(1),
  time: z.string().refine(isHhMm, "time must be HH:mm"),
});
const clockSchema = z.object({ offsetMs: z.number().finite() });
const releaseSchema = z.object({
  releaseTime: z.string().refine(isHhMm, "releaseTime must be HH:mm"),
  releaseDaysBefore: z.number().int().min(0).max(366),
});
const advisorySchema = z.object({
  title: z.string().min(1),
  eventDate: z.string().refine(isIsoDate).nullable().optional(),
  content: z.string().min(1),
});

async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: z.prettifyError(parsed.error) };
}

export function createControlRoutes(target: ControlTarget): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    if (c.req.header(CONTROL_TOKEN_HEADER) !== target.controlToken) return c.json({ message: "control token required" }, 403);
    return next();
  });

  const state = () => ({ faults: target.faults(), clockOffsetMs: target.clockOffsetMs(), clubNowMs: target.now(), release: target.release() });
  app.get("/state", (c) => c.json(state()));

  app.post("/faults", async (c) => {
    const input = await readJson(c.req.raw, faultsInputSchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    target.setFaults(input.value);
    return c.json(state());
  });

  app.post("/clock", async (c) => {
    const input = await readJson(c.req.raw, clockSchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    target.setClockOffset(input.value.offsetMs);
    return c.json(state());
  });

  // When the club opens dates: the demo club follows the release settings of the Teebox using it.
  app.post("/release", async (c) => {
    const input = await readJson(c.req.raw, releaseSchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    target.setRelease(input.value);
    return c.json(state());
  });

  // `?date=` keeps one play date's posts (a soak reads a day's release without the whole log).
  app.get("/attempts", (c) => {
    const date = c.req.query("date");
    return c.json({ attempts: date ? target.attempts().filter((a) => a.date === date) : target.attempts() });
  });
  app.get("/bookings", (c) => c.json({ bookings: target.bookingsOf(c.req.query("email") ?? "") }));
  // Read only: the club's whole record, against which a soak checks that nothing is lost or doubled.
  app.get("/bookings/all", (c) => c.json({ bookings: target.allBookings() }));
  // What the club was asked since the last read (then forgotten): POST, as reading clears it.
  app.post("/traffic/take", (c) => c.json({ traffic: target.takeTraffic() }));

  app.post("/slot", async (c) => {
    const input = await readJson(c.req.raw, slotSchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    const { date, course, time, status } = input.value;
    target.setSlotStatus(date, course, time, status);
    return c.body(null, 204);
  });

  // A cancellation at the club: whoever held the slot loses it and it is AVAILABLE again.
  app.post("/free-slot", async (c) => {
    const input = await readJson(c.req.raw, freeSlotSchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    const { date, course, time } = input.value;
    return c.json({ freedRef: target.freeSlot(date, course, time), freedAtClubMs: target.now() });
  });

  app.post("/advisories", async (c) => {
    const input = await readJson(c.req.raw, advisorySchema);
    if (!input.ok) return c.json({ message: input.message }, 400);
    return c.json(target.addAdvisory(input.value), 201);
  });
  app.delete("/advisories", (c) => {
    target.clearAdvisories();
    return c.body(null, 204);
  });

  app.post("/drop-sessions", (c) => {
    target.dropAllSessions();
    return c.body(null, 204);
  });
  return app;
}
