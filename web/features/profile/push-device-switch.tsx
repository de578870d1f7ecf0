/**
 * "Notifications on this device": turns push on (the browser asks for the permission, subscribes
 * with the server's key, and the server keeps the subscription) or off. Where push cannot be had,
 * it says why: an iPhone outside the home-screen app, a blocked permission, an insecure address, a
 * browser without push. A device already on is confirmed to the server when the page opens, so a
 * device the server had dropped comes back.
 */
import { useEffect, useState } from "react";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { currentSubscription, PushPermissionError, pushApi, pushSupport, turnOffThisDevice, turnOnThisDevice, type PushSupport } from "../../lib/push-device.ts";

type DeviceState = "loading" | "on" | "off" | "error";

const HINTS = {
  unsupported: "push.device.unsupported",
  insecure: "push.device.insecure",
  "install-first": "push.device.ios_install",
  denied: "push.device.denied",
} as const satisfies Record<Exclude<PushSupport, "ready">, string>;

export function PushDeviceSwitch({ support: given }: { support?: PushSupport }) {
  const t = useText();
  const [support, setSupport] = useState<PushSupport>(() => given ?? pushSupport());
  const [state, setState] = useState<DeviceState>("loading");
  const [publicKey, setPublicKey] = useState<string | null>(null);
  const [devices, setDevices] = useState(0);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    let isActive = true;
    (async () => {
      const status = await pushApi.status();
      if (!isActive) return;
      setPublicKey(status.publicKey);
      setDevices(status.devices);
      const subscription = support === "ready" ? await currentSubscription(status.publicKey) : null;
      if (subscription) setDevices((await pushApi.add(subscription.toJSON())).devices);
      if (isActive) setState(subscription ? "on" : "off");
    })().catch(() => isActive && setState("error"));
    return () => {
      isActive = false;
    };
  }, [support]);

  async function flip(isOn: boolean) {
    if (!publicKey) return;
    setBusy(true);
    try {
      setDevices((isOn ? await turnOnThisDevice(publicKey) : ((await turnOffThisDevice()) ?? { devices: Math.max(0, devices - 1) })).devices);
      setState(isOn ? "on" : "off");
      showToast("success", { textKey: isOn ? "push.device.turned_on" : "push.device.turned_off" });
    } catch (error) {
      if (error instanceof PushPermissionError && error.permission === "denied") setSupport("denied");
      else showToast("error", { textKey: isOn ? "push.device.failed" : "push.device.off_failed" });
    } finally {
      setBusy(false);
    }
  }

  const isOn = state === "on";
  const hint = support !== "ready" ? HINTS[support] : isOn ? "push.device.hint_on" : "push.device.hint_off";
  return (
    <div className="push-device" data-testid="push-device">
      <label className="notification-settings__switch push-device__switch">
        <input
          type="checkbox"
          // biome-ignore lint/a11y/useAriaPropsForRole: a checkbox's own checked state is the switch's state.
          role="switch"
          checked={isOn}
          disabled={support !== "ready" || state === "loading" || state === "error" || isBusy}
          aria-describedby="push-device-hint"
          onChange={(event) => void flip(event.target.checked)}
        />
        <span>{t("push.device.title")}</span>
      </label>
      <p className="field__hint" id="push-device-hint">
        {t(hint)}
        {devices > 0 ? ` ${t("push.device.count", { count: devices })}` : ""}
      </p>
    </div>
  );
}
