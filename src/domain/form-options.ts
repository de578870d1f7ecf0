/**
 * Form options: the choices of player type, cart and fees that admins keep
 * in the database. When a category has none loaded, the product's defaults stand in.
 */
import { isGuestType, PLAYER_TYPES } from "./players.ts";

export const FORM_OPTION_CATEGORIES = ["playerType", "cartPreference", "feePreferenceGuest", "feePreferenceMember"] as const;
export type FormOptionCategory = (typeof FORM_OPTION_CATEGORIES)[number];

export type FormOption = { category: FormOptionCategory; value: string };

/** Used for a category with no options loaded. */
export const FORM_OPTION_FALLBACKS: Readonly<Record<FormOptionCategory, readonly string[]>> = {
  playerType: PLAYER_TYPES,
  cartPreference: ["Rental Cart - Solo"],
  feePreferenceGuest: ["Charge my guest"],
  feePreferenceMember: ["Charge to their account"],
};

/** The values of one category in their stored order, else the fallbacks. */
export function optionValues(options: readonly FormOption[], category: FormOptionCategory): string[] {
  const values = options.filter((o) => o.category === category).map((o) => o.value);
  return values.length > 0 ? values : [...FORM_OPTION_FALLBACKS[category]];
}

/** The first option of a category: the setup wizard's default. */
export function firstOption(options: readonly FormOption[], category: FormOptionCategory): string {
  return optionValues(options, category)[0] ?? "";
}

/** Guests and Senior Care are charged with the guest fee choices, everyone else with the member ones. */
export function feeCategoryFor(playerType: string): "feePreferenceGuest" | "feePreferenceMember" {
  return isGuestType(playerType) ? "feePreferenceGuest" : "feePreferenceMember";
}

/** `preferred` when it is one of the category's values, else its first value (a stale default is replaced). */
export function pickOption(options: readonly FormOption[], category: FormOptionCategory, preferred: string | null | undefined): string {
  const values = optionValues(options, category);
  return preferred && values.includes(preferred) ? preferred : (values[0] ?? "");
}
