/**
 * The member's email switches: one per kind of notification, saved as it is flipped.
 * Every notification is always listed under the bell; these choose which are also emailed.
 */
import { useEffect, useState } from "react";
import { NOTIFICATION_KINDS, notificationSwitchKey, type NotificationKind } from "../../../src/domain/notifications.ts";
import { LoadingBlock } from "../../components/spinner.tsx";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { fetchEmailSettings, saveEmailSwitch, type EmailSettings } from "./profile-api.ts";

export function EmailNotifications() {
  const t = useText();
  const [settings, setSettings] = useState<EmailSettings | null>(null);
  const [hasError, setHasError] = useState(false);
  const [saving, setSaving] = useState<NotificationKind | null>(null);

  useEffect(() => {
    let isActive = true;
    fetchEmailSettings()
      .then((loaded) => isActive && setSettings(loaded))
      .catch(() => isActive && setHasError(true));
    return () => {
      isActive = false;
    };
  }, []);

  async function flip(kind: NotificationKind, isOn: boolean) {
    if (!settings) return;
    const before = settings;
    setSettings({ ...settings, email: { ...settings.email, [kind]: isOn } });
    setSaving(kind);
    try {
      setSettings(await saveEmailSwitch(kind, isOn));
      showToast("success", { textKey: "notifications.settings.saved" });
    } catch {
      setSettings(before);
      showToast("error", { textKey: "notifications.settings.save_failed" });
    } finally {
      setSaving(null);
    }
  }

  return (
    <section className="card profile-card email-notifications" aria-labelledby="email-notifications-title" data-testid="email-notifications">
      <h2 id="email-notifications-title">{t("notifications.settings.title")}</h2>
      {hasError ? <p role="alert">{t("notifications.settings.load_failed")}</p> : null}
      {!settings && !hasError ? <LoadingBlock label={t("common.loading")} /> : null}
      {settings ? (
        <>
          <p className="field__hint">{settings.address ? t("notifications.settings.hint", { email: settings.address }) : t("notifications.settings.no_email")}</p>
          <ul className="email-notifications__list">
            {NOTIFICATION_KINDS.map((kind) => (
              <li key={kind}>
                <label className="email-notifications__switch">
                  <input
                    type="checkbox"
                    // biome-ignore lint/a11y/useAriaPropsForRole: a checkbox's own checked state is the switch's state.
                    role="switch"
                    checked={settings.email[kind]}
                    disabled={saving !== null}
                    onChange={(event) => void flip(kind, event.target.checked)}
                  />
                  <span>{t(notificationSwitchKey(kind))}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
