/** Says that a new version of Teebox has been installed, with a button to reload into it. */
import { useSyncExternalStore } from "react";
import { isNewVersionReady, onNewVersionReady } from "../lib/service-worker.ts";
import { useText } from "../lib/text.ts";

export function UpdateBanner() {
  const t = useText();
  const isReady = useSyncExternalStore(onNewVersionReady, isNewVersionReady, () => false);
  if (!isReady) return null;
  return (
    <div className="update-banner" role="status">
      <span>{t("update.ready")}</span>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t("update.reload")}
      </button>
    </div>
  );
}
