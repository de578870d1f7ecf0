import { describe, expect, test } from "bun:test";
import { fillPlaceholders, makeProblem, PROBLEM_TEXTS } from "../../src/domain/problem.ts";

describe("problem", () => {
  test("fills placeholders and keeps the context", () => {
    expect(makeProblem("booking.max_players", { maxPlayers: 3 })).toEqual({
      message: "Maximum of 3 players allowed.",
      errorKey: "booking.max_players",
      context: { maxPlayers: 3 },
    });
  });

  test("a problem without placeholders has no context", () => {
    expect(makeProblem("booking.add_self")).toEqual({
      message: "You cannot add yourself as another player.",
      errorKey: "booking.add_self",
    });
  });

  test("unknown placeholders stay as written", () => {
    expect(fillPlaceholders("{a} and {b}", { a: "x" })).toBe("x and {b}");
  });

  test("the product's texts are the defaults", () => {
    expect(PROBLEM_TEXTS["booking.max_guests"]).toBe("Maximum of {maxGuests} guest(s) allowed.");
    expect(PROBLEM_TEXTS["booking.min_players"]).toBe("Minimum of {minPlayers} players required.");
    expect(PROBLEM_TEXTS["players.duplicate"]).toBe("This exact player already exists in your list.");
    expect(PROBLEM_TEXTS["booking.incomplete"]).toBe("Please complete all required fields.");
  });
});
