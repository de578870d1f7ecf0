/**
 * "Notifications on this device" on the Profile page: which browsers can have push and what the
 * others are told (an iPhone outside the home-screen app, a blocked permission, an insecure
 * address, a browser without push), and the switch's state as the server and the browser report it.
 * The subscription itself is the browser's: it is proven in Chromium (test/e2e/push.e2e.test.ts).
 */
import "../helpers/dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { render, screen, waitFor } from "@testing-library/react";
import { PushDeviceSwitch } from "../../web/features/profile/push-device-switch.tsx";
import { isAppleMobile, pushSupport, type PushBrowser } from "../../web/lib/push-device.ts";
import { jsonResponse, mockFetch, restoreFetch } from "./support/fetch-mock.ts";

afterEach(restoreFetch);

const PUBLIC_KEY = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
const ANDROID_CHROME: PushBrowser = {
  isSecureContext: true,
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
  maxTouchPoints: 5,
  platform: "Linux armv8l",
  isStandalone: false,
  hasServiceWorker: true,
  hasPushManager: true,
  permission: "default",
};
const IPHONE = {
  ...ANDROID_CHROME,
  userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  platform: "iPhone",
};
const IPAD_AS_MAC = {
  ...ANDROID_CHROME,
  userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  platform: "MacIntel",
};

describe("which browsers can have push", () => {
  test("a secure browser with a service worker and push is ready, until its permission is blocked", () => {
    expect(pushSupport(ANDROID_CHROME)).toBe("ready");
    expect(pushSupport({ ...ANDROID_CHROME, permission: "granted" })).toBe("ready");
    expect(pushSupport({ ...ANDROID_CHROME, permission: "denied" })).toBe("denied");
    expect(pushSupport({ ...ANDROID_CHROME, isSecureContext: false })).toBe("insecure");
    expect(pushSupport({ ...ANDROID_CHROME, hasPushManager: false })).toBe("unsupported");
    expect(pushSupport({ ...ANDROID_CHROME, permission: null })).toBe("unsupported");
  });

  test("an iPhone or iPad (which calls itself a Mac with a touch screen) needs the app on its home screen first", () => {
    expect(isAppleMobile(IPHONE)).toBe(true);
    expect(isAppleMobile(IPAD_AS_MAC)).toBe(true);
    expect(isAppleMobile({ ...IPAD_AS_MAC, maxTouchPoints: 0 })).toBe(false);
    expect(pushSupport(IPHONE)).toBe("install-first");
    expect(pushSupport(IPAD_AS_MAC)).toBe("install-first");
    expect(pushSupport({ ...IPHONE, isStandalone: true })).toBe("ready");
  });
});

describe("the device switch", () => {
  const serveStatus = (devices: number) => mockFetch((call) => (call.url.startsWith("/v1/my/push") ? jsonResponse({ publicKey: PUBLIC_KEY, devices }) : undefined));

  test("on an iPhone in Safari it is off and says how to add Teebox to the home screen", async () => {
    serveStatus(0);
    render(<PushDeviceSwitch support="install-first" />);
    const toggle = (await screen.findByRole("switch", { name: "Notifications on this device" })) as HTMLInputElement;
    await screen.findByText(/tap Share, then Add to Home Screen/);
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
    expect(toggle.getAttribute("aria-describedby")).toBe("push-device-hint");
  });

  test("a blocked permission is explained, with the member's other devices counted", async () => {
    serveStatus(2);
    render(<PushDeviceSwitch support="denied" />);
    await screen.findByText(/Notifications are blocked for Teebox in this browser\..*Push is on for 2 of your devices\./);
    expect(((await screen.findByRole("switch")) as HTMLInputElement).disabled).toBe(true);
  });

  test("a ready browser with no subscription offers the switch, off, once the server's key is in", async () => {
    serveStatus(0);
    render(<PushDeviceSwitch support="ready" />);
    const toggle = (await screen.findByRole("switch")) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
    expect(screen.getByText(/Turn this on to get the notifications you switched on under Push/)).toBeTruthy();
  });
});
