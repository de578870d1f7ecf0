import { describe, expect, test } from "bun:test";
import {
  GUEST_MEMBER_ID,
  PLAYER_TYPES,
  canAddToFlight,
  formatPlayerName,
  isGuestType,
  isPlayerComplete,
  normaliseMemberId,
  normaliseSavedPlayer,
  savedToFlightPlayer,
  showsLastNameAndIdOnly,
  validateFlight,
  validateSavedPlayers,
  type FlightPlayer,
  type SavedPlayer,
} from "../../src/domain/players.ts";

const SELF = { memberId: "M100" };
const LIMITS = { minPlayers: 1, maxPlayers: 4, maxGuests: 3 };

const me: FlightPlayer = { type: "Member", firstName: "", lastName: "Santos", memberId: "M100", cart: "Rental Cart - Solo", fee: "", locked: true };
const member = (over: Partial<FlightPlayer> = {}): FlightPlayer => ({
  type: "Member",
  firstName: "",
  lastName: "Reyes",
  memberId: "M200",
  cart: "Rental Cart - Solo",
  fee: "Charge to their account",
  ...over,
});
const guest = (over: Partial<FlightPlayer> = {}): FlightPlayer => ({
  type: "Guest",
  firstName: "Ana",
  lastName: "Cruz",
  memberId: "",
  cart: "Rental Cart - Shared",
  fee: "Charge my guest",
  ...over,
});

describe("types", () => {
  test("default list", () => {
    expect([...PLAYER_TYPES]).toEqual(["Member", "Spouse", "Dependent", "Guest", "Senior Care"]);
    expect(GUEST_MEMBER_ID).toBe("0000");
  });
  test("guests are Guest and Senior Care", () => {
    expect(PLAYER_TYPES.map(isGuestType)).toEqual([false, false, false, true, true]);
    expect(isGuestType("senior care")).toBe(true);
  });
  test("Member, Spouse and Dependent show last name and id only", () => {
    expect(PLAYER_TYPES.map(showsLastNameAndIdOnly)).toEqual([true, true, true, false, false]);
  });
});

test("normaliseMemberId trims and upper-cases", () => {
  expect(normaliseMemberId("  ab12c ")).toBe("AB12C");
  expect(normaliseMemberId(null)).toBe("");
});

describe("formatPlayerName", () => {
  test("trimmed, lower-cased, trailing period or comma removed, capitalised per word", () => {
    expect(formatPlayerName("  DELA CRUZ, ")).toBe("Dela Cruz");
    expect(formatPlayerName("juan  carlos.")).toBe("Juan Carlos");
    expect(formatPlayerName("JR.")).toBe("Jr");
    expect(formatPlayerName("")).toBe("");
    expect(formatPlayerName(undefined)).toBe("");
  });
});

describe("canAddToFlight", () => {
  test("accepts a new member", () => {
    expect(canAddToFlight([me], member(), LIMITS, SELF)).toBeNull();
  });

  test("refuses past max players", () => {
    const flight = [me, member({ memberId: "A" }), member({ memberId: "B" })];
    expect(canAddToFlight(flight, member({ memberId: "C" }), { ...LIMITS, maxPlayers: 3 }, SELF)).toEqual({
      message: "Maximum of 3 players allowed.",
      errorKey: "booking.max_players",
      context: { maxPlayers: 3 },
    });
  });

  test("refuses past max guests, counting Senior Care as a guest", () => {
    const flight = [me, guest({ type: "Senior Care" })];
    expect(canAddToFlight(flight, guest(), { ...LIMITS, maxGuests: 1 }, SELF)).toEqual({
      message: "Maximum of 1 guest(s) allowed.",
      errorKey: "booking.max_guests",
      context: { maxGuests: 1 },
    });
    expect(canAddToFlight(flight, member(), { ...LIMITS, maxGuests: 1 }, SELF)).toBeNull();
  });

  test("a guest with no guests allowed", () => {
    expect(canAddToFlight([me], guest(), { ...LIMITS, maxGuests: 0 }, SELF)?.message).toBe("Maximum of 0 guest(s) allowed.");
  });

  test("refuses a saved player already added", () => {
    const saved = guest({ fromSaved: true, locked: true });
    expect(canAddToFlight([me, saved], { ...saved }, LIMITS, SELF)).toEqual({
      message: "Player already in flight.",
      errorKey: "booking.player_in_flight",
    });
  });

  test("refuses the member themself, ignoring case", () => {
    expect(canAddToFlight([me], member({ memberId: "m100", lastName: "Other" }), LIMITS, SELF)).toEqual({
      message: "You cannot add yourself as another player.",
      errorKey: "booking.add_self",
    });
  });

  test("the member may be the first player of an empty flight", () => {
    expect(canAddToFlight([], me, LIMITS, SELF)).toBeNull();
  });

  test("refuses a duplicate member: same first, last and id, ignoring case and spaces", () => {
    const flight = [me, member({ firstName: "Jose" })];
    expect(canAddToFlight(flight, member({ firstName: " JOSE ", lastName: "reyes", memberId: "m200" }), LIMITS, SELF)).toEqual({
      message: "This player is already in the flight.",
      errorKey: "booking.duplicate_player",
    });
    expect(canAddToFlight(flight, member({ firstName: "Maria" }), LIMITS, SELF)).toBeNull();
  });

  test("guests with the same name are not member duplicates", () => {
    expect(canAddToFlight([me, guest()], guest(), LIMITS, SELF)).toBeNull();
  });

  test("blank rows are not duplicates of each other", () => {
    const blank = member({ lastName: "", memberId: "" });
    expect(canAddToFlight([me, blank], { ...blank }, LIMITS, SELF)).toBeNull();
  });
});

describe("isPlayerComplete", () => {
  test("the first player needs only a cart", () => {
    expect(isPlayerComplete(me, true)).toBe(true);
    expect(isPlayerComplete({ ...me, cart: "" }, true)).toBe(false);
  });
  test("a member needs last name, member id, cart and fee, not a first name", () => {
    expect(isPlayerComplete(member(), false)).toBe(true);
    expect(isPlayerComplete(member({ memberId: " " }), false)).toBe(false);
    expect(isPlayerComplete(member({ lastName: "" }), false)).toBe(false);
    expect(isPlayerComplete(member({ cart: "" }), false)).toBe(false);
    expect(isPlayerComplete(member({ fee: "" }), false)).toBe(false);
  });
  test("a guest needs first and last name, cart and fee, no member id", () => {
    expect(isPlayerComplete(guest(), false)).toBe(true);
    expect(isPlayerComplete(guest({ firstName: "" }), false)).toBe(false);
    expect(isPlayerComplete(guest({ lastName: "" }), false)).toBe(false);
  });
  test("another non-guest type needs first name and member id", () => {
    const junior = member({ type: "Junior", firstName: "Leo" });
    expect(isPlayerComplete(junior, false)).toBe(true);
    expect(isPlayerComplete({ ...junior, firstName: "" }, false)).toBe(false);
    expect(isPlayerComplete({ ...junior, memberId: "" }, false)).toBe(false);
  });
  test("a player without a type is incomplete", () => {
    expect(isPlayerComplete(member({ type: "" }), false)).toBe(false);
  });
});

describe("validateFlight", () => {
  test("a good flight passes", () => {
    expect(validateFlight([me, member(), guest()], LIMITS, SELF)).toBeNull();
  });
  test("too many players", () => {
    const flight = [me, member({ memberId: "A" }), member({ memberId: "B" }), member({ memberId: "C" }), guest()];
    expect(validateFlight(flight, LIMITS, SELF)?.message).toBe("Maximum of 4 players allowed.");
  });
  test("too many guests", () => {
    expect(validateFlight([me, guest(), guest({ firstName: "Ben" })], { ...LIMITS, maxGuests: 1 }, SELF)?.message).toBe("Maximum of 1 guest(s) allowed.");
  });
  test("too few players", () => {
    expect(validateFlight([me], { ...LIMITS, minPlayers: 2 }, SELF)).toEqual({
      message: "Minimum of 2 players required.",
      errorKey: "booking.min_players",
      context: { minPlayers: 2 },
    });
  });
  test("the member listed again", () => {
    expect(validateFlight([me, member({ memberId: "M100" })], LIMITS, SELF)?.errorKey).toBe("booking.add_self");
  });
  test("a duplicate member anywhere in the list", () => {
    expect(validateFlight([me, guest(), member(), member()], LIMITS, SELF)?.message).toBe("This player is already in the flight.");
  });
  test("an incomplete player", () => {
    expect(validateFlight([me, member({ fee: "" })], LIMITS, SELF)).toEqual({
      message: "Please complete all required fields.",
      errorKey: "booking.incomplete",
    });
  });
});

const saved = (over: Partial<SavedPlayer> = {}): SavedPlayer => ({
  firstName: "Jose",
  lastName: "Reyes",
  type: "Member",
  memberId: "m200",
  cartPreference: "Rental Cart - Solo",
  feePreference: "Charge to their account",
  ...over,
});

describe("saved players", () => {
  test("normaliseSavedPlayer trims, upper-cases ids and gives guests 0000", () => {
    expect(normaliseSavedPlayer(saved({ firstName: " Jose ", memberId: " m200 " }))).toEqual(saved({ memberId: "M200" }));
    expect(normaliseSavedPlayer(saved({ type: "Senior Care", memberId: "" })).memberId).toBe("0000");
    expect(normaliseSavedPlayer(saved({ type: "Guest", memberId: "X9" })).memberId).toBe("0000");
  });

  test("a valid list passes", () => {
    expect(validateSavedPlayers([saved(), saved({ type: "Guest", memberId: "", firstName: "Ana" })], PLAYER_TYPES)).toBeNull();
  });

  test("an exact duplicate, ignoring case and spaces", () => {
    expect(validateSavedPlayers([saved(), saved({ firstName: "JOSE ", memberId: "M200" })], PLAYER_TYPES)).toEqual({
      message: "This exact player already exists in your list.",
      errorKey: "players.duplicate",
    });
  });

  test("two guests with the same name are duplicates (both 0000)", () => {
    const g = saved({ type: "Guest", memberId: "" });
    expect(validateSavedPlayers([g, { ...g, memberId: "123" }], PLAYER_TYPES)?.errorKey).toBe("players.duplicate");
  });

  test("same name, different member id is not a duplicate", () => {
    expect(validateSavedPlayers([saved(), saved({ memberId: "M201" })], PLAYER_TYPES)).toBeNull();
  });

  test("member id required except for Guest and Senior Care", () => {
    expect(validateSavedPlayers([saved({ memberId: "  " })], PLAYER_TYPES)).toEqual({
      message: "Membership number is required.",
      errorKey: "players.member_id_required",
    });
    expect(validateSavedPlayers([saved({ type: "Senior Care", memberId: "" })], PLAYER_TYPES)).toBeNull();
  });

  test("the type must be an allowed one", () => {
    expect(validateSavedPlayers([saved({ type: "Caddie" })], PLAYER_TYPES)).toEqual({
      message: "Unknown player type: Caddie.",
      errorKey: "players.invalid_type",
      context: { type: "Caddie" },
    });
    expect(validateSavedPlayers([saved({ type: "Caddie" })], [...PLAYER_TYPES, "Caddie"])).toBeNull();
  });

  test("names required: last name always, first name for types that show it", () => {
    expect(validateSavedPlayers([saved({ lastName: " " })], PLAYER_TYPES)?.errorKey).toBe("players.incomplete");
    expect(validateSavedPlayers([saved({ firstName: "" })], PLAYER_TYPES)).toBeNull();
    expect(validateSavedPlayers([saved({ type: "Guest", firstName: "" })], PLAYER_TYPES)?.errorKey).toBe("players.incomplete");
  });

  test("savedToFlightPlayer makes a locked row from the saved preferences", () => {
    expect(savedToFlightPlayer(saved({ memberId: "m200 " }))).toEqual({
      type: "Member",
      firstName: "Jose",
      lastName: "Reyes",
      memberId: "M200",
      cart: "Rental Cart - Solo",
      fee: "Charge to their account",
      locked: true,
      fromSaved: true,
    });
    expect(savedToFlightPlayer(saved({ type: "Guest" })).memberId).toBe("");
  });
});
