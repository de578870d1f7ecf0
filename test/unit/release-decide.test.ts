/** What the release engine does after each club answer: a table of cases, no club, no clock. */
import { describe, expect, test } from "bun:test";
import type { ClubErrorKind } from "../../src/club/errors.ts";
import { decideAfterAnswer, freshRetryState, type ClubAnswer, type Decision, type RetryState } from "../../src/lifecycle/club-answer.ts";

const SETTINGS = { notYetOpenRetryMs: 40, notYetOpenWindowMs: 20_000, unavailableBackoffMs: [100, 250, 500], unavailableWindowMs: 30_000 };
const NOW = 1_000_000;
const err = (kind: ClubErrorKind, isAmbiguous = false, to: "post" | "sheet" = "post"): ClubAnswer => ({ to, kind: "error", error: { kind, message: `club says ${kind}`, isAmbiguous } });
const decide = (answer: ClubAnswer, state: Partial<RetryState> = {}, now = NOW) =>
  decideAfterAnswer({ answer, state: { ...freshRetryState(), ...state }, now, playDate: "2026-11-29", settings: SETTINGS });

const cases: [string, ClubAnswer, Partial<RetryState>, Decision][] = [
  ["a booked answer books", { to: "post", kind: "booked", ref: "SW-1" }, {}, { kind: "book", ref: "SW-1" }],
  ["slot taken: the next time, and nobody tries it again", err("slot_taken"), {}, { kind: "next_time", gone: true }],
  ["slot not found: the next time", err("not_found"), {}, { kind: "next_time", gone: true }],
  ["a refusal in no known family: the next time, never a failure", err("refused_unknown"), {}, { kind: "next_time", gone: false }],
  ["not yet open: the same time after the short pause", err("not_yet_open"), {}, { kind: "retry_same", afterMs: 40 }],
  ["not yet open past the window: fail", err("not_yet_open"), { notYetOpenSince: NOW - 20_000 }, { kind: "fail", reason: { key: "bookings.reason.not_opened_in_time", context: { date: "2026-11-29" } } }],
  ["sheet not released: the same time after the short pause", { to: "sheet", kind: "not_released" }, {}, { kind: "retry_same", afterMs: 40 }],
  ["first session expiry: sign in again at once", err("session_expired"), {}, { kind: "re_sign_in", afterMs: null }],
  ["second session expiry: back off", err("session_expired"), { hasRenewed: true }, { kind: "back_off", afterMs: 100 }],
  ["club down without a post reaching it: back off", err("unavailable"), {}, { kind: "back_off", afterMs: 100 }],
  ["club down, third time: the third pause", err("unavailable"), { troubleSince: NOW - 10, backoffStep: 2 }, { kind: "back_off", afterMs: 500 }],
  ["club down, pauses exhausted: the last pause repeats", err("unavailable"), { troubleSince: NOW - 10, backoffStep: 9 }, { kind: "back_off", afterMs: 500 }],
  ["an unanswered post: reconcile before posting again", err("unavailable", true), {}, { kind: "reconcile", afterMs: 100 }],
  ["an unreadable answer to a post: reconcile", err("page_not_understood"), {}, { kind: "reconcile", afterMs: 100 }],
  ["club down for the whole window, nothing posted unanswered: fail with the timeout reason", err("unavailable"), { troubleSince: NOW - 30_000 }, { kind: "fail", reason: { key: "bookings.reason.club_timeout", context: {} } }],
  // An unknown outcome is never a failure: the club's bookings are read first.
  ["an unanswered post after the whole window: read the club, fail only if the booking is absent", err("unavailable", true), { troubleSince: NOW - 30_000, backoffStep: 7 }, { kind: "reconcile", afterMs: 500, failIfAbsent: { key: "bookings.reason.club_timeout", context: {} } }],
  ["an unreadable answer after the whole window: read the club, fail only if absent", err("page_not_understood"), { troubleSince: NOW - 30_000 }, { kind: "reconcile", afterMs: 100, failIfAbsent: { key: "bookings.reason.page_not_understood", context: {} } }],
  // A time the club does not have is that slot failing, never the member's request.
  ["a predicted id for no such time: read the sheet once", err("no_such_time"), { isPredicted: true }, { kind: "read_sheet" }],
  ["no such time under the real id: the next time, nobody tries it again", err("no_such_time"), { isPredicted: true, isIdCorrected: true }, { kind: "next_time", gone: true }],
  ["no such time with a live-data id: it may be stale, read the sheet once", err("no_such_time"), {}, { kind: "read_sheet" }],
  ["no such time after the sheet was read: the next time", err("no_such_time"), { isIdCorrected: true }, { kind: "next_time", gone: true }],
  ["a predicted slot id refused: read the sheet", err("rule_refused"), { isPredicted: true }, { kind: "read_sheet" }],
  ["a refusal of the real id: fail with the club's words", err("rule_refused"), { isPredicted: true, isIdCorrected: true }, { kind: "fail", reason: { key: "bookings.reason.club_refused", context: { message: "club says rule_refused" } } }],
  ["a player unknown to the club: fail with the club's words", err("player_not_found"), {}, { kind: "fail", reason: { key: "bookings.reason.club_refused", context: { message: "club says player_not_found" } } }],
  ["bad credentials: fail", err("bad_credentials"), {}, { kind: "fail", reason: { key: "bookings.reason.bad_credentials", context: {} } }],
  ["sheet read with bad credentials: fail", err("bad_credentials", false, "sheet"), {}, { kind: "fail", reason: { key: "bookings.reason.bad_credentials", context: {} } }],
  ["sheet read on an expired session: sign in, then pause", err("session_expired", false, "sheet"), {}, { kind: "re_sign_in", afterMs: 100 }],
  ["sheet read timing out: back off, never reconcile (nothing was posted)", err("unavailable", true, "sheet"), {}, { kind: "back_off", afterMs: 100 }],
  ["unreadable sheet for the whole window: fail with that reason", err("page_not_understood", false, "sheet"), { troubleSince: NOW - 30_000 }, { kind: "fail", reason: { key: "bookings.reason.page_not_understood", context: {} } }],
];

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
