import { describe, expect, test } from "bun:test";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { decideSettingsSave, settingsFormOf } from "../../web/features/admin/settings-tabs.tsx";

describe("watch and readiness settings in the admin form", () => {
  test("shown and sent (numbers as numbers) when the server has them", () => {
    const form = settingsFormOf({ ...DEFAULT_SETTINGS, max_active_watches: 3, watch_poll_seconds: 60, readiness_check_time: "18:00" });
    expect(form).toMatchObject({ max_active_watches: "3", watch_poll_seconds: "60", readiness_check_time: "18:00" });
    const decision = decideSettingsSave({ ...form, watch_poll_seconds: "15", readiness_check_time: " 19:30 " });
    expect(decision).toEqual({ kind: "send", settings: { ...DEFAULT_SETTINGS, max_active_watches: 3, watch_poll_seconds: 15, readiness_check_time: "19:30" } });
  });

  test("absent from a server without them: neither shown nor sent", () => {
    const form = settingsFormOf(DEFAULT_SETTINGS);
    expect(Object.keys(form)).not.toContain("watch_poll_seconds");
    expect(decideSettingsSave(form)).toEqual({ kind: "send", settings: DEFAULT_SETTINGS });
  });
});
