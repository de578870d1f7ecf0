/** The mobile bottom bar with its More menu (below 768 px; the stylesheet hides it on desktop). */
import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { useText } from "../lib/text.ts";
import { TabLink } from "./tab-link.tsx";
import { splitTabsForWidth, type TabItem } from "./tabs.ts";

export interface BottomBarProps {
  tabs: readonly TabItem[];
  badgeCount: number;
  widthPx: number;
}

export function BottomBar({ tabs, badgeCount, widthPx }: BottomBarProps) {
  const t = useText();
  const { visible, overflow } = splitTabsForWidth(tabs, widthPx);
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const isOverflowActive = overflow.some((tab) => tab.path === pathname);

  useEffect(() => {
    if (!isMenuOpen) return;
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key === "Escape") setMenuOpen(false);
    }
    function closeOnOutsideClick(event: MouseEvent) {
      if (containerRef.current && !containerRef.current.contains(event.target as Node)) setMenuOpen(false);
    }
    document.addEventListener("keydown", closeOnEscape);
    document.addEventListener("mousedown", closeOnOutsideClick);
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      document.removeEventListener("mousedown", closeOnOutsideClick);
    };
  }, [isMenuOpen]);

  return (
    <nav className="bottom-bar" aria-label={t("layout.main_navigation")} data-testid="bottom-bar">
      {visible.map((tab) => (
        <TabLink key={tab.id} tab={tab} badgeCount={badgeCount} className="bottom-bar__item" />
      ))}
      {overflow.length > 0 ? (
        <div className="bottom-bar__more" ref={containerRef}>
          <button
            type="button"
            className={isOverflowActive ? "bottom-bar__item is-active" : "bottom-bar__item"}
            aria-haspopup="menu"
            aria-expanded={isMenuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="tab-label">{t("tabs.more")}</span>
            {overflow.some((tab) => tab.id === "bookings") && badgeCount > 0 ? <span className="badge badge--dot" aria-hidden="true" /> : null}
          </button>
          {isMenuOpen ? (
            <div className="more-menu" role="menu" id={menuId} aria-label={t("tabs.more")}>
              {overflow.map((tab) => (
                <TabLink key={tab.id} tab={tab} badgeCount={badgeCount} className="more-menu__item" role="menuitem" onNavigate={() => setMenuOpen(false)} />
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
