import { useState } from "react";
import { formatClockTime } from "../../src/domain/manila-time.ts";
import { BRAND_TITLE } from "../../src/domain/ui-text/common.ts";
import { Button } from "../components/button.tsx";
import { RefreshButton } from "../features/home/refresh-button.tsx";
import { NotificationBell } from "../features/notifications/notification-bell.tsx";
import { InvitationInBell } from "../features/partners/invitation-in-bell.tsx";
import { useLiveData, useLiveDataSync } from "../lib/live-data-store.ts";
import { useSessionStore } from "../lib/session-store.ts";
import { useText } from "../lib/text.ts";

/** Brand, welcome line, last-updated time (Manila HH:mm:ss, dashes when unknown), the notification bell and logout. */
export function Header() {
  const t = useText();
  const user = useSessionStore((state) => state.user);
  const signOut = useSessionStore((state) => state.signOut);
  const lastScrapeTime = useLiveData((state) => state.lastScrapeTime);
  const [isSigningOut, setSigningOut] = useState(false);
  // The header is on every signed-in page, so it keeps the live data (and its last-updated time) in sync.
  useLiveDataSync();

  async function handleLogout() {
    setSigningOut(true);
    // The route guard sees the anonymous session and shows /login.
    await signOut();
  }

  return (
    <header className="app-header">
      <div className="app-header__brand">
        <span className="brand-title">{BRAND_TITLE}</span>
        <span className="app-header__welcome">{t("layout.welcome", { name: user?.name || user?.username || "" })}</span>
      </div>
      <div className="app-header__side">
        <span className="app-header__updated" data-testid="last-updated">
          {t("layout.last_updated", { time: formatClockTime(lastScrapeTime) })}
        </span>
        <RefreshButton />
        {/* Side by side even on a phone, where the rest of this column stacks. */}
        <div className="app-header__account">
          <NotificationBell renderActions={(item) => <InvitationInBell item={item} />} />
          <Button variant="secondary" className="app-header__logout" isLoading={isSigningOut} onClick={handleLogout}>
            {t("layout.logout")}
          </Button>
        </div>
      </div>
    </header>
  );
}
