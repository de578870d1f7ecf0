import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { listedPlayerToFlight } from "../../web/features/book/book-model.ts";

const defaults = { cart: "Rental Cart - Solo", feeGuest: "Charge my guest", feeMember: "Charge to their account" };

describe("listedPlayerToFlight", () => {
  test("a typed player keeps the cart and fee it was booked with", () => {
    const row = listedPlayerToFlight({ name: "Luis Garcia", type: "Member", memberId: "sw-1004", cart: "Own Cart", fee: "Charge to my account" }, [], defaults);
    expect(row).toMatchObject({ firstName: "Luis", lastName: "Garcia", memberId: "SW-1004", cart: "Own Cart", fee: "Charge to my account", locked: false });
  });

  test("without them it starts from the profile's defaults by type", () => {
    const guest = listedPlayerToFlight({ name: "Pia Ramos", type: "Guest", memberId: "0000" }, [], defaults);
    expect(guest).toMatchObject({ cart: "Rental Cart - Solo", fee: "Charge my guest", memberId: "" });
  });

  test("a saved player is taken from the list, locked, with its own choices", () => {
    const saved = [{ firstName: "Luis", lastName: "Garcia", type: "Member", memberId: "SW-1004", cartPreference: "Walking", feePreference: "Charge to their account" }];
    const row = listedPlayerToFlight({ name: "Luis Garcia", type: "Member", memberId: "SW-1004", cart: "Own Cart", fee: "Charge to my account" }, saved, defaults);
    expect(row).toMatchObject({ cart: "Walking", locked: true });
  });
});
