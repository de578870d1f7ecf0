/** What the players forms derive from the form options and the member's defaults. */
import { feeCategoryFor, optionValues, pickOption, type FormOption } from "../../../src/domain/form-options.ts";
import { GUEST_MEMBER_ID, isGuestType, normaliseSavedPlayer, validateSavedPlayers, type SavedPlayer } from "../../../src/domain/players.ts";
import type { DomainProblem } from "../../../src/domain/problem.ts";
import type { SessionUser } from "../../lib/types.ts";

export type PlayerDefaults = Pick<SessionUser, "defaultCartType" | "defaultFeeGuest" | "defaultFeeMember">;

export function feeChoicesFor(options: readonly FormOption[], type: string): string[] {
  return optionValues(options, feeCategoryFor(type));
}

function defaultFeeFor(type: string, defaults: PlayerDefaults | null): string {
  return isGuestType(type) ? (defaults?.defaultFeeGuest ?? "") : (defaults?.defaultFeeMember ?? "");
}

/** A blank player of the first type, with the member's default cart and fee. */
export function newPlayer(options: readonly FormOption[], defaults: PlayerDefaults | null): SavedPlayer {
  const type = optionValues(options, "playerType")[0] ?? "Member";
  return withType(
    { firstName: "", lastName: "", type, memberId: "", cartPreference: pickOption(options, "cartPreference", defaults?.defaultCartType), feePreference: "" },
    type,
    options,
    defaults,
  );
}

/**
 * A new type: Guest and Senior Care take the member id '0000' (a member type starts blank again),
 * and the fee moves to the new type's choices when the old one is not among them.
 */
export function withType(player: SavedPlayer, type: string, options: readonly FormOption[], defaults: PlayerDefaults | null): SavedPlayer {
  const fees = feeChoicesFor(options, type);
  const feePreference = fees.includes(player.feePreference) ? player.feePreference : pickOption(options, feeCategoryFor(type), defaultFeeFor(type, defaults));
  let memberId = player.memberId;
  if (isGuestType(type)) memberId = GUEST_MEMBER_ID;
  else if (isGuestType(player.type)) memberId = "";
  return { ...player, type, memberId, feePreference };
}

/** The list as it will be saved, or the first problem with it. */
export function prepareList(list: readonly SavedPlayer[], options: readonly FormOption[]): { players: SavedPlayer[]; problem: DomainProblem | null } {
  const players = list.map(normaliseSavedPlayer);
  return { players, problem: validateSavedPlayers(players, optionValues(options, "playerType")) };
}
