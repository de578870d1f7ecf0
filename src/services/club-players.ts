/**
 * From a checked flight to the players Teebox stores and sends to the club. The booking member
 * is found at the club by last name and membership number, like any other member, so their
 * full name is split into given names and surname (keeping particles such as 'Dela' with it).
 */
import type { StoredPlayer } from "../db/schema.ts";
import type { ClubPlayer } from "../club/records.ts";
import { isGuestType, type FlightPlayer } from "../domain/players.ts";

/** The booking member pays for themselves. */
export const SELF_FEE = "Charge to my account";

const SURNAME_PARTICLES = new Set(["de", "del", "dela", "della", "delos", "la", "las", "los", "san", "santa", "sta.", "van", "von", "da", "di", "du", "le", "mac", "st."]);

/** 'Rosa Dela Cruz' → { given: 'Rosa', surname: 'Dela Cruz' }; a single word is the surname. */
export function splitFullName(fullName: string): { given: string; surname: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { given: "", surname: words[0] ?? "" };
  let start = words.length - 1;
  while (start > 1 && SURNAME_PARTICLES.has(words[start - 1].toLowerCase())) start--;
  return { given: words.slice(0, start).join(" "), surname: words.slice(start).join(" ") };
}

/** The stored players of a validated flight (the booking member first, named from their profile). */
export function flightToStoredPlayers(flight: readonly FlightPlayer[], memberName: string): StoredPlayer[] {
  return flight.map((p, i) => {
    if (i === 0) {
      const { given, surname } = splitFullName(memberName);
      return { type: p.type || "Member", firstName: given, lastName: surname, memberId: p.memberId, cart: p.cart, fee: p.fee || SELF_FEE };
    }
    return { type: p.type, firstName: p.firstName, lastName: p.lastName, memberId: isGuestType(p.type) ? "" : p.memberId, cart: p.cart, fee: p.fee };
  });
}

export function toClubPlayers(players: readonly StoredPlayer[]): ClubPlayer[] {
  return players.map((p) => ({
    type: p.type,
    ...(p.firstName ? { firstName: p.firstName } : {}),
    lastName: p.lastName,
    ...(p.memberId ? { memberId: p.memberId } : {}),
    cart: p.cart,
    fee: p.fee,
  }));
}

export function displayName(player: Pick<StoredPlayer, "firstName" | "lastName">): string {
  return [player.firstName, player.lastName]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(" ");
}
