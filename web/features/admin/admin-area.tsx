/** The admin area: side tabs in the product's order, System Monitor first. */
import { useState, type ComponentType } from "react";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { useText } from "../../lib/text.ts";
import { BookingWindowsTab, CoursesTab, FrontpageTab } from "./config-tabs.tsx";
import { ApiReferenceTab } from "./api-reference.tsx";
import { GuestRulesTab } from "./guest-rules-tab.tsx";
import { AppSettingsTab, UiTextTab } from "./settings-tabs.tsx";
import { SystemMonitor } from "./system-monitor.tsx";
import { UsersTab } from "./users-tab.tsx";
import "./admin.css";

export interface AdminTab {
  id: string;
  labelKey: UiTextKey;
  Component: ComponentType;
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { id: "monitor", labelKey: "admin.tab.monitor", Component: () => <SystemMonitor /> },
  { id: "users", labelKey: "admin.tab.users", Component: UsersTab },
  { id: "settings", labelKey: "admin.tab.settings", Component: AppSettingsTab },
  { id: "courses", labelKey: "admin.tab.courses", Component: CoursesTab },
  { id: "windows", labelKey: "admin.tab.windows", Component: BookingWindowsTab },
  { id: "guest-rules", labelKey: "admin.tab.guest_rules", Component: GuestRulesTab },
  { id: "frontpage", labelKey: "admin.tab.frontpage", Component: FrontpageTab },
  { id: "ui-text", labelKey: "admin.tab.ui_text", Component: UiTextTab },
  { id: "api", labelKey: "admin.tab.api", Component: ApiReferenceTab },
];

export function AdminArea() {
  const t = useText();
  const [activeId, setActiveId] = useState(ADMIN_TABS[0].id);
  const active = ADMIN_TABS.find((tab) => tab.id === activeId) ?? ADMIN_TABS[0];
  return (
    <section className="page admin-page">
      <h1 className="page__title">{t("admin.title")}</h1>
      <div className="admin-layout">
        <div className="admin-tabs" role="tablist" aria-orientation="vertical" aria-label={t("admin.tabs_label")}>
          {ADMIN_TABS.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`admin-tab-${tab.id}`}
              aria-selected={tab.id === active.id}
              aria-controls="admin-panel"
              className={`admin-tabs__tab${tab.id === active.id ? " is-active" : ""}`}
              onClick={() => setActiveId(tab.id)}
            >
              {t(tab.labelKey)}
            </button>
          ))}
        </div>
        <div className="admin-panel" id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${active.id}`}>
          <active.Component key={active.id} />
        </div>
      </div>
    </section>
  );
}
