import { useText } from "../lib/text.ts";
import { TabLink } from "./tab-link.tsx";
import type { TabItem } from "./tabs.ts";

/** The desktop tab bar (768 px and wider; the stylesheet hides it below). */
export function TabBar({ tabs, badgeCount }: { tabs: readonly TabItem[]; badgeCount: number }) {
  const t = useText();
  return (
    <nav className="tab-bar" aria-label={t("layout.main_navigation")} data-testid="tab-bar">
      {tabs.map((tab) => (
        <TabLink key={tab.id} tab={tab} badgeCount={badgeCount} className="tab-bar__item" />
      ))}
    </nav>
  );
}
