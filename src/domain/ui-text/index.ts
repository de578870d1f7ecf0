/**
 * Every default UI text, merged from the per-area catalogues. The server seeds these into the
 * database; the web app falls back to them for any key an admin has not overridden.
 */
import { adminText } from "./admin.ts";
import { bookText } from "./book.ts";
import { bookingsText } from "./bookings.ts";
import { commonText } from "./common.ts";
import { errorsText } from "./errors.ts";
import { homeText } from "./home.ts";
import { loginText } from "./login.ts";
import { notificationsText } from "./notifications.ts";
import { partnersText } from "./partners.ts";
import { playersText } from "./players.ts";
import { profileText } from "./profile.ts";
import { setupText } from "./setup.ts";
import { storyText } from "./story-and-calendar.ts";
import { seriesText } from "./series.ts";
import { watchesText } from "./watches.ts";

export { BRAND_TITLE } from "./common.ts";

export const DEFAULT_UI_TEXT = {
  ...commonText,
  ...errorsText,
  ...loginText,
  ...homeText,
  ...bookText,
  ...bookingsText,
  ...playersText,
  ...profileText,
  ...setupText,
  ...adminText,
  ...notificationsText,
  ...storyText,
  ...watchesText,
  ...seriesText,
  ...partnersText,
} as const satisfies Record<string, string>;

export type UiTextKey = keyof typeof DEFAULT_UI_TEXT;

export function isUiTextKey(key: string): key is UiTextKey {
  return Object.hasOwn(DEFAULT_UI_TEXT, key);
}
