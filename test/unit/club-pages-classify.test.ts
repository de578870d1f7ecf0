/** One case per phrasing family of the club's refusals, as different clubs write them. */
import { describe, expect, test } from "bun:test";
import { classifyRefusal, REFUSAL_FAMILIES } from "../../src/club/classify.ts";

const CASES: [string, string][] = [
  // slot taken → the next time at once
  ["Sorry, this tee time is no longer available.", "slot_taken"],
  ["This tee time was just reserved by another member.", "slot_taken"],
  ["Slot taken.", "slot_taken"],
  ["The selected time is unavailable.", "slot_taken"],
  ["That tee time is not available.", "slot_taken"],
  ["The flight is full.", "slot_taken"],
  ["This tee time has already been booked.", "slot_taken"],
  // not open yet → the same time again
  ["This date is not yet open for booking. Booking opens Tuesday Mar 4, 2025 at 07:00.", "not_yet_open"],
  ["Reservations open on March 4 at 7:00 AM.", "not_yet_open"],
  ["Too early to book this date.", "not_yet_open"],
  ["The requested date is outside the booking window.", "not_yet_open"],
  ["Tee times are not yet available for this date.", "not_yet_open"],
  ["Saturday will open for booking at 7:00 AM.", "not_yet_open"],
  // a rule or a limit → failed with the club's words
  ["You have reached the limit of 1 booking per day.", "rule_refused"],
  ["Only one reservation per member is allowed.", "rule_refused"],
  ["Too many guests: a flight may include at most 3 guests.", "rule_refused"],
  ["Minimum of 2 players", "rule_refused"],
  // no such tee time (or not under that id) → the next time, never a failure
  ["The selected tee time does not exist.", "no_such_time"],
  ["No such tee time on this date.", "no_such_time"],
  ["That tee time is not offered on Sundays.", "no_such_time"],
  ["Invalid slot.", "no_such_time"],
  ["This tee time has already passed.", "rule_refused"],
  ["Every guest needs a first name.", "rule_refused"],
  // a player the club does not know
  ["Player not found: Reyes (SW-9999).", "player_not_found"],
  ["No member found with that number.", "player_not_found"],
  ["Unknown member SW-9999.", "player_not_found"],
  // the session ended → sign in again
  ["Your session has expired. Please sign in again.", "session_expired"],
  ["Session timed out.", "session_expired"],
  ["Please log in to continue.", "session_expired"],
  // no family → the club's exact words, and the engine goes on to the next time
  ["Please contact the pro shop to complete this request.", "refused_unknown"],
  ["Request could not be processed.", "refused_unknown"],
];

describe("refusals are sorted by families of phrasing", () => {
  test.each(CASES)("%s → %s", (message, kind) => expect(classifyRefusal(message)).toBe(kind as ReturnType<typeof classifyRefusal>));

  test("every family has a case, and every phrasing of the table is exercised", () => {
    for (const family of REFUSAL_FAMILIES) {
      expect(CASES.some(([, kind]) => kind === family.kind)).toBe(true);
      for (const phrasing of family.phrasings) expect(CASES.some(([message]) => phrasing.test(message))).toBe(true);
    }
  });

  test("white space and case do not change the answer", () => {
    expect(classifyRefusal("  SORRY,\n this tee time is   NO LONGER available ")).toBe("slot_taken");
  });
});
