/** The main tabs and the More-menu overflow math of the mobile bottom bar. */
import type { UiTextKey } from "../../src/domain/ui-text/index.ts";
import { paths } from "../paths.ts";
import type { Role } from "../lib/types.ts";
import { isAdminRole } from "../lib/session-store.ts";

/** Each mobile tab item is counted as 90 px wide. */
export const MOBILE_TAB_WIDTH_PX = 90;
/** Desktop layout, with the top tab bar instead of the bottom bar, starts here. */
export const DESKTOP_MIN_WIDTH_PX = 768;

export type TabId = "home" | "book" | "bookings" | "players" | "profile" | "admin";

export interface TabItem {
  id: TabId;
  path: string;
  labelKey: UiTextKey;
  isAdminOnly: boolean;
}

export const TABS: readonly TabItem[] = [
  { id: "home", path: paths.home, labelKey: "tabs.home", isAdminOnly: false },
  { id: "book", path: paths.book, labelKey: "tabs.book", isAdminOnly: false },
  { id: "bookings", path: paths.bookings, labelKey: "tabs.bookings", isAdminOnly: false },
  { id: "players", path: paths.players, labelKey: "tabs.players", isAdminOnly: false },
  { id: "profile", path: paths.profile, labelKey: "tabs.profile", isAdminOnly: false },
  { id: "admin", path: paths.admin, labelKey: "tabs.admin", isAdminOnly: true },
];

export function tabsForRole(role: Role | undefined): TabItem[] {
  return TABS.filter((tab) => !tab.isAdminOnly || isAdminRole(role));
}

export interface TabSplit {
  visible: TabItem[];
  overflow: TabItem[];
}

/**
 * All tabs when they fit at 90 px each; otherwise as many as fit beside a More button
 * (which takes one 90 px slot itself), the rest going into the More menu.
 */
export function splitTabsForWidth(tabs: readonly TabItem[], widthPx: number, itemWidthPx = MOBILE_TAB_WIDTH_PX): TabSplit {
  if (tabs.length * itemWidthPx <= widthPx) return { visible: [...tabs], overflow: [] };
  const slots = Math.floor(widthPx / itemWidthPx);
  const visibleCount = Math.max(slots - 1, 0);
  return { visible: tabs.slice(0, visibleCount), overflow: tabs.slice(visibleCount) };
}
