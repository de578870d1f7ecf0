import { describe, expect, test } from "bun:test";
import { displayName, flightToStoredPlayers, splitFullName, toClubPlayers } from "../../src/services/club-players.ts";

describe("players sent to the club", () => {
  test("the booking member's surname keeps its particles", () => {
    expect(splitFullName("Maria Santos")).toEqual({ given: "Maria", surname: "Santos" });
    expect(splitFullName("Rosa Dela Cruz")).toEqual({ given: "Rosa", surname: "Dela Cruz" });
    expect(splitFullName("  Juan  de la  Paz ")).toEqual({ given: "Juan", surname: "de la Paz" });
    expect(splitFullName("Cher")).toEqual({ given: "", surname: "Cher" });
    expect(splitFullName("")).toEqual({ given: "", surname: "" });
  });

  test("a flight becomes stored players (member first, paying for themselves) and club players", () => {
    const stored = flightToStoredPlayers(
      [
        { type: "Member", firstName: "", lastName: "Maria Santos", memberId: "SW-1001", cart: "Walking", fee: "", locked: true },
        { type: "Guest", firstName: "Pat", lastName: "Guest", memberId: "", cart: "Own Cart", fee: "Charge my guest" },
        { type: "Spouse", firstName: "", lastName: "Santos", memberId: "SW-1001-S", cart: "Walking", fee: "Charge to their account" },
      ],
      "Maria Santos",
    );
    expect(stored[0]).toEqual({ type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" });
    expect(stored.map(displayName)).toEqual(["Maria Santos", "Pat Guest", "Santos"]);
    expect(toClubPlayers(stored)).toEqual([
      { type: "Member", firstName: "Maria", lastName: "Santos", memberId: "SW-1001", cart: "Walking", fee: "Charge to my account" },
      { type: "Guest", firstName: "Pat", lastName: "Guest", cart: "Own Cart", fee: "Charge my guest" },
      { type: "Spouse", lastName: "Santos", memberId: "SW-1001-S", cart: "Walking", fee: "Charge to their account" },
    ]);
  });
});
