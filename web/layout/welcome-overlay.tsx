import { useState } from "react";
import { Button } from "../components/button.tsx";
import { Dialog } from "../components/dialog.tsx";
import { HAS_SEEN_WELCOME_KEY } from "../lib/storage-keys.ts";
import { useText } from "../lib/text.ts";

function hasSeenWelcome(): boolean {
  try {
    return localStorage.getItem(HAS_SEEN_WELCOME_KEY) === "true";
  } catch {
    return true;
  }
}

function rememberWelcomeSeen(): void {
  try {
    localStorage.setItem(HAS_SEEN_WELCOME_KEY, "true");
  } catch {
    // Without storage the overlay simply shows again next time.
  }
}

/** Shown once per browser, remembered under the hasSeenWelcome key. */
export function WelcomeOverlay() {
  const t = useText();
  const [isOpen, setOpen] = useState(() => !hasSeenWelcome());
  function close() {
    rememberWelcomeSeen();
    setOpen(false);
  }
  return (
    <Dialog isOpen={isOpen} title={t("layout.welcome_overlay.title")} onClose={close} actions={<Button onClick={close}>{t("layout.welcome_overlay.dismiss")}</Button>}>
      <p>{t("layout.welcome_overlay.body")}</p>
    </Dialog>
  );
}
