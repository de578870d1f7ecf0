/** What the release engine does after each club answer: a table of cases, no club, no clock. */
import { describe, expect, test } from "bun:test";
import type { ClubErrorKind } from "../../src/club/errors.ts";
import type { RequestReason } from "../../src/domain/request-reasons.ts";
import {
  decideAfterAnswer,
  freshRetryState,
  NOT_YET_OPEN_SCHEDULE,
  notYetOpenAsks,
  notYetOpenPauseMs,
  notYetOpenTurnMs,
  showsDateOpen,
  type ClubAnswer,
  type Decision,
  type RetrySettings,
  type RetryState,
} from "../../src/attempt/policy.ts";

const SETTINGS: RetrySettings = {
  notYetOpenSchedule: [
    { untilMs: 5_000, everyMs: 50 },
    { untilMs: Number.POSITIVE_INFINITY, everyMs: 1_000 },
  ],
  notYetOpenWindowMs: 20_000,
  unavailableBackoffMs: [100, 250, 500],
  unavailableWindowMs: 30_000,
};
const NOW = 1_000_000;
const err = (kind: ClubErrorKind, isAmbiguous = false, to: "post" | "sheet" = "post", retryAfterMs?: number): ClubAnswer => ({
  to,
  kind: "error",
  error: { kind, message: `club says ${kind}`, isAmbiguous, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
});
const SLOWED: RequestReason = { key: "bookings.reason.club_slowed_down", context: {} };
const decide = (answer: ClubAnswer, state: Partial<RetryState> = {}, now = NOW) =>
  decideAfterAnswer({ answer, state: { ...freshRetryState(), ...state }, now, playDate: "2026-11-29", settings: SETTINGS });

const cases: [string, ClubAnswer, Partial<RetryState>, Decision][] = [
  ["a booked answer books", { to: "post", kind: "booked", ref: "SW-1" }, {}, { kind: "book", ref: "SW-1" }],
  ["slot taken: the next time, and nobody tries it again", err("slot_taken"), {}, { kind: "next_time", gone: true }],
  ["slot not found: the next time", err("not_found"), {}, { kind: "next_time", gone: true }],
  ["a refusal in no known family: the next time, never a failure", err("refused_unknown"), {}, { kind: "next_time", gone: false }],
  ["not yet open: the same time after the short pause", err("not_yet_open"), {}, { kind: "retry_same", afterMs: 50 }],
  [
    "not yet open past the window: fail",
    err("not_yet_open"),
    { notYetOpenSince: NOW - 20_000 },
    { kind: "fail", reason: { key: "bookings.reason.not_opened_in_time", context: { date: "2026-11-29" } } },
  ],
  ["sheet not released: the same time after the short pause", { to: "sheet", kind: "not_released" }, {}, { kind: "retry_same", afterMs: 50 }],
  ["first session expiry: sign in again at once", err("session_expired"), {}, { kind: "re_sign_in", afterMs: null }],
  ["second session expiry: back off", err("session_expired"), { hasRenewed: true }, { kind: "back_off", afterMs: 100 }],
  ["club down without a post reaching it: back off", err("unavailable"), {}, { kind: "back_off", afterMs: 100 }],
  ["club down, third time: the third pause", err("unavailable"), { troubleSince: NOW - 10, backoffStep: 2 }, { kind: "back_off", afterMs: 500 }],
  ["club down, pauses exhausted: the last pause repeats", err("unavailable"), { troubleSince: NOW - 10, backoffStep: 9 }, { kind: "back_off", afterMs: 500 }],
  ["an unanswered post: reconcile before posting again", err("unavailable", true), {}, { kind: "reconcile", afterMs: 100 }],
  ["an unreadable answer to a post: reconcile", err("page_not_understood"), {}, { kind: "reconcile", afterMs: 100 }],
  [
    "club down for the whole window, nothing posted unanswered: fail with the timeout reason",
    err("unavailable"),
    { troubleSince: NOW - 30_000 },
    { kind: "fail", reason: { key: "bookings.reason.club_timeout", context: {} } },
  ],
  // An unknown outcome is never a failure: the club's bookings are read first.
  [
    "an unanswered post after the whole window: read the club, fail only if the booking is absent",
    err("unavailable", true),
    { troubleSince: NOW - 30_000, backoffStep: 7 },
    { kind: "reconcile", afterMs: 500, failIfAbsent: { key: "bookings.reason.club_timeout", context: {} } },
  ],
  [
    "an unreadable answer after the whole window: read the club, fail only if absent",
    err("page_not_understood"),
    { troubleSince: NOW - 30_000 },
    { kind: "reconcile", afterMs: 100, failIfAbsent: { key: "bookings.reason.page_not_understood", context: {} } },
  ],
  // A time the club does not have is that slot failing, never the member's request.
  ["a predicted id for no such time: read the sheet once", err("no_such_time"), { isPredicted: true }, { kind: "read_sheet" }],
  ["no such time under the real id: the next time, nobody tries it again", err("no_such_time"), { isPredicted: true, isIdCorrected: true }, { kind: "next_time", gone: true }],
  ["no such time with a live-data id: it may be stale, read the sheet once", err("no_such_time"), {}, { kind: "read_sheet" }],
  ["no such time after the sheet was read: the next time", err("no_such_time"), { isIdCorrected: true }, { kind: "next_time", gone: true }],
  ["a predicted slot id refused: read the sheet", err("rule_refused"), { isPredicted: true }, { kind: "read_sheet" }],
  [
    "a refusal of the real id: fail with the club's words",
    err("rule_refused"),
    { isPredicted: true, isIdCorrected: true },
    { kind: "fail", reason: { key: "bookings.reason.club_refused", context: { message: "club says rule_refused" } } },
  ],
  [
    "a player unknown to the club: fail with the club's words",
    err("player_not_found"),
    {},
    { kind: "fail", reason: { key: "bookings.reason.club_refused", context: { message: "club says player_not_found" } } },
  ],
  ["bad credentials: fail", err("bad_credentials"), {}, { kind: "fail", reason: { key: "bookings.reason.bad_credentials", context: {} } }],
  ["sheet read with bad credentials: fail", err("bad_credentials", false, "sheet"), {}, { kind: "fail", reason: { key: "bookings.reason.bad_credentials", context: {} } }],
  ["sheet read on an expired session: sign in, then pause", err("session_expired", false, "sheet"), {}, { kind: "re_sign_in", afterMs: 100 }],
  ["sheet read timing out: back off, never reconcile (nothing was posted)", err("unavailable", true, "sheet"), {}, { kind: "back_off", afterMs: 100 }],
  [
    "unreadable sheet for the whole window: fail with that reason",
    err("page_not_understood", false, "sheet"),
    { troubleSince: NOW - 30_000 },
    { kind: "fail", reason: { key: "bookings.reason.page_not_understood", context: {} } },
  ],
  // The club asked Teebox to slow down (decision 146): nothing before its pause is over.
  ["a 429 to a post: the same time after the club's pause", err("slow_down", false, "post", 30_000), {}, { kind: "back_off", afterMs: 30_000 }],
  ["a bot wall or a 503 to a post: read the club after the pause before posting again", err("slow_down", true, "post", 60_000), {}, { kind: "reconcile", afterMs: 60_000 }],
  ["a slow-down to a sheet read: back off for the pause", err("slow_down", false, "sheet", 45_000), {}, { kind: "back_off", afterMs: 45_000 }],
  [
    "a slow-down for the whole window, nothing possibly booked: fail with its reason",
    err("slow_down", false, "post", 30_000),
    { troubleSince: NOW - 30_000 },
    { kind: "fail", reason: SLOWED },
  ],
  [
    "a bot wall after the whole window: read the club, fail only if the booking is absent (never an unknown outcome failed)",
    err("slow_down", true, "post", 30_000),
    { troubleSince: NOW - 30_000 },
    { kind: "reconcile", afterMs: 30_000, failIfAbsent: SLOWED },
  ],
  ["not sent at all (the budget refused it, or Teebox is stopping): back off", err("busy"), {}, { kind: "back_off", afterMs: 100 }],
];

describe("the 'not yet open' cadence", () => {
  test("quick in the first seconds, then slower and slower; the last step repeats", () => {
    expect([0, 2_999, 3_000, 29_999, 30_000, 119_999, 120_000, 3_600_000].map((at) => notYetOpenPauseMs(at, NOT_YET_OPEN_SCHEDULE))).toEqual([
      10, 10, 500, 500, 2_000, 2_000, 10_000, 10_000,
    ]);
  });

  test("bounded: the asks per date over a window, as the README states them", () => {
    expect(notYetOpenAsks(2_000, NOT_YET_OPEN_SCHEDULE)).toBe(200);
    expect(notYetOpenAsks(20_000, NOT_YET_OPEN_SCHEDULE)).toBe(334);
    expect(notYetOpenAsks(30_000, NOT_YET_OPEN_SCHEDULE)).toBe(354);
    expect(notYetOpenAsks(10 * 60_000, NOT_YET_OPEN_SCHEDULE)).toBe(447);
    expect(notYetOpenAsks(60 * 60_000, NOT_YET_OPEN_SCHEDULE)).toBe(747);
  });

  test("a date with few requests is asked more slowly: none of them more often than every 50 ms", () => {
    expect(notYetOpenTurnMs(10, 30)).toBe(10);
    expect(notYetOpenTurnMs(10, 5)).toBe(10);
    expect(notYetOpenTurnMs(10, 3)).toBe(17);
    expect(notYetOpenTurnMs(10, 1)).toBe(50);
    expect(notYetOpenTurnMs(500, 1)).toBe(500);
  });

  test("the pause follows how long the date has been answered 'not yet open'", () => {
    const at = (elapsed: number) => decide(err("not_yet_open"), { notYetOpenSince: NOW - elapsed }).decision;
    expect(at(0)).toEqual({ kind: "retry_same", afterMs: 50 });
    expect(at(4_000)).toEqual({ kind: "retry_same", afterMs: 50 });
    expect(at(6_000)).toEqual({ kind: "retry_same", afterMs: 1_000 });
  });

  test("with no window of its own, 'not yet open' is tried for as long as club trouble (club_retry_minutes)", () => {
    const settings = { ...SETTINGS, notYetOpenWindowMs: null, unavailableWindowMs: 10 * 60_000 };
    const at = (elapsed: number) =>
      decideAfterAnswer({ answer: err("not_yet_open"), state: { ...freshRetryState(), notYetOpenSince: NOW - elapsed }, now: NOW, playDate: "2026-11-29", settings }).decision.kind;
    expect(at(30_000)).toBe("retry_same");
    expect(at(10 * 60_000 - 1)).toBe("retry_same");
    expect(at(10 * 60_000)).toBe("fail");
  });

  test("an answer shows the date open when the club booked or weighed the post; not while it is in trouble", () => {
    expect(showsDateOpen({ to: "post", kind: "booked", ref: "X" })).toBe(true);
    expect(showsDateOpen(err("slot_taken"))).toBe(true);
    expect(showsDateOpen(err("rule_refused"))).toBe(true);
    expect(showsDateOpen(err("not_yet_open"))).toBe(false);
    expect(showsDateOpen(err("unavailable", true))).toBe(false);
    expect(showsDateOpen(err("slow_down"))).toBe(false);
    expect(showsDateOpen({ to: "sheet", kind: "not_released" })).toBe(false);
  });
});

describe("decideAfterAnswer", () => {
  for (const [name, answer, state, expected] of cases) {
    test(name, () => expect(decide(answer, state).decision).toEqual(expected));
  }

  test("a refusal of a kind the engine does not know means: go to the next time, never fail", () => {
    const unknown = { to: "post", kind: "error", error: { kind: "refused_otherwise" as ClubErrorKind, message: "no", isAmbiguous: false } } as ClubAnswer;
    expect(decide(unknown).decision).toEqual({ kind: "next_time", gone: false });
  });

  test("the state carries the retry bookkeeping forward", () => {
    const first = decide(err("unavailable"));
    expect(first.state).toMatchObject({ troubleSince: NOW, backoffStep: 1 });
    const second = decideAfterAnswer({ answer: err("unavailable"), state: first.state, now: NOW + 100, playDate: "2026-11-29", settings: SETTINGS });
    expect(second.decision).toEqual({ kind: "back_off", afterMs: 250 });
    expect(second.state).toMatchObject({ troubleSince: NOW, backoffStep: 2 });
    expect(decide(err("session_expired")).state.hasRenewed).toBe(true);
    expect(decide(err("session_expired"), { hasRenewed: true }).state.hasRenewed).toBe(false);
    expect(decide(err("rule_refused"), { isPredicted: true }).state.isIdCorrected).toBe(true);
    expect(decide(err("not_yet_open")).state.notYetOpenSince).toBe(NOW);
  });

  test("the input state is never changed", () => {
    const state = freshRetryState(true);
    const copy = { ...state };
    decideAfterAnswer({ answer: err("rule_refused"), state, now: NOW, playDate: "2026-11-29", settings: SETTINGS });
    expect(state).toEqual(copy);
  });
});
