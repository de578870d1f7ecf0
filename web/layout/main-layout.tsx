/** The signed-in frame: header, desktop tab bar, animated page, mobile bottom bar. */
import type { CSSProperties } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { SubmissionResultDialog } from "../components/submission-result-dialog.tsx";
import { useSessionStore } from "../lib/session-store.ts";
import { BottomBar } from "./bottom-bar.tsx";
import { Header } from "./header.tsx";
import { TabBar } from "./tab-bar.tsx";
import { tabsForRole } from "./tabs.ts";
import { useUpcomingCount } from "./use-upcoming-count.ts";
import { useViewportWidth } from "../lib/use-viewport-width.ts";
import { WelcomeOverlay } from "./welcome-overlay.tsx";

export const ROUTE_TRANSITION_MS = 280;

export default function MainLayout() {
  const role = useSessionStore((state) => state.user?.role);
  const tabs = tabsForRole(role);
  const badgeCount = useUpcomingCount();
  const widthPx = useViewportWidth();
  const { pathname } = useLocation();
  const transitionStyle = { "--route-transition-ms": `${ROUTE_TRANSITION_MS}ms` } as CSSProperties;

  return (
    <div className="app-shell" style={transitionStyle}>
      <Header />
      <TabBar tabs={tabs} badgeCount={badgeCount} />
      <main className="app-main">
        {/* A new key per path restarts the enter animation on every route change. */}
        <div className="route-view" key={pathname} data-testid="route-view">
          <Outlet />
        </div>
      </main>
      <BottomBar tabs={tabs} badgeCount={badgeCount} widthPx={widthPx} />
      <WelcomeOverlay />
      <SubmissionResultDialog />
    </div>
  );
}
