import { useState } from "react";
import { Button } from "../../components/button.tsx";
import { refreshLiveData } from "../../lib/live-data-store.ts";
import { useText } from "../../lib/text.ts";

/** The manual refresh: asks for a scrape, reloads all data, then toasts 'data refreshed'. */
export function RefreshButton() {
  const t = useText();
  const [isRefreshing, setRefreshing] = useState(false);

  async function handleClick() {
    setRefreshing(true);
    try {
      await refreshLiveData();
    } finally {
      setRefreshing(false);
    }
  }

  return (
    <Button variant="ghost" className="refresh-button" isLoading={isRefreshing} onClick={handleClick} aria-label={t("home.refresh_label")} data-testid="refresh-data">
      {t("home.refresh")}
    </Button>
  );
}
