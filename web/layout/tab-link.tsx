import { NavLink } from "react-router-dom";
import { useText } from "../lib/text.ts";
import { paths } from "../paths.ts";
import type { TabItem } from "./tabs.ts";

export interface TabLinkProps {
  tab: TabItem;
  badgeCount: number;
  className: string;
  onNavigate?: () => void;
  role?: "menuitem";
}

/** One tab: its label, and on Bookings the upcoming-count badge when there is anything upcoming. */
export function TabLink({ tab, badgeCount, className, onNavigate, role }: TabLinkProps) {
  const t = useText();
  const hasBadge = tab.id === "bookings" && badgeCount > 0;
  return (
    <NavLink
      to={tab.path}
      end={tab.path === paths.home}
      className={({ isActive }) => (isActive ? `${className} is-active` : className)}
      onClick={onNavigate}
      role={role}
      data-tab={tab.id}
    >
      <span className="tab-label">{t(tab.labelKey)}</span>
      {hasBadge ? (
        <span className="badge" role="img" aria-label={t("tabs.bookings_badge", { count: badgeCount })}>
          {badgeCount}
        </span>
      ) : null}
    </NavLink>
  );
}
