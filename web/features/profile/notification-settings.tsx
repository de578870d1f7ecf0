/**
 * The member's notifications (Profile page): push on this device, then each kind's channels (in
 * the app, push, email), each a switch saved as it is flipped (decision 186). The list under the
 * bell records every kind; "in the app" off keeps a kind out of it.
 */
import { useEffect, useState } from "react";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, notificationSwitchKey, type NotificationChannel, type NotificationKind } from "../../../src/domain/notifications.ts";
import { LoadingBlock } from "../../components/spinner.tsx";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { fetchNotificationSettings, saveChannelSwitch, type NotificationSettings } from "./profile-api.ts";
import { PushDeviceSwitch } from "./push-device-switch.tsx";

const channelKey = (channel: NotificationChannel) => `notifications.settings.channel.${channel}` as const;

export function NotificationSettingsSection() {
  const t = useText();
  const [settings, setSettings] = useState<NotificationSettings | null>(null);
  const [hasError, setHasError] = useState(false);
  const [isSaving, setSaving] = useState(false);

  useEffect(() => {
    let isActive = true;
    fetchNotificationSettings()
      .then((loaded) => isActive && setSettings(loaded))
      .catch(() => isActive && setHasError(true));
    return () => {
      isActive = false;
    };
  }, []);

  async function flip(channel: NotificationChannel, kind: NotificationKind, isOn: boolean) {
    if (!settings) return;
    const before = settings;
    setSettings({ ...settings, [channel]: { ...settings[channel], [kind]: isOn } });
    setSaving(true);
    try {
      setSettings(await saveChannelSwitch(channel, kind, isOn));
      showToast("success", { textKey: "notifications.settings.saved" });
    } catch {
      setSettings(before);
      showToast("error", { textKey: "notifications.settings.save_failed" });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card profile-card notification-settings" aria-labelledby="notification-settings-title" data-testid="notification-settings">
      <h2 id="notification-settings-title">{t("notifications.settings.title")}</h2>
      <PushDeviceSwitch />
      {hasError ? <p role="alert">{t("notifications.settings.load_failed")}</p> : null}
      {!settings && !hasError ? <LoadingBlock label={t("common.loading")} /> : null}
      {settings ? (
        <>
          <p className="field__hint">{settings.address ? t("notifications.settings.hint", { email: settings.address }) : t("notifications.settings.no_email")}</p>
          <ul className="notification-settings__kinds">
            {NOTIFICATION_KINDS.map((kind) => (
              <li key={kind}>
                <fieldset className="notification-settings__kind">
                  <legend>{t(notificationSwitchKey(kind))}</legend>
                  <div className="notification-settings__channels">
                    {NOTIFICATION_CHANNELS.map((channel) => (
                      <label key={channel} className="notification-settings__switch">
                        <input
                          type="checkbox"
                          // biome-ignore lint/a11y/useAriaPropsForRole: a checkbox's own checked state is the switch's state.
                          role="switch"
                          aria-label={t("notifications.settings.switch_label", { kind: t(notificationSwitchKey(kind)), channel: t(channelKey(channel)) })}
                          checked={settings[channel][kind]}
                          disabled={isSaving}
                          onChange={(event) => void flip(channel, kind, event.target.checked)}
                        />
                        <span aria-hidden="true">{t(channelKey(channel))}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
