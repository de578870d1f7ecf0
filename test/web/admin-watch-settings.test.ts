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

describe("the club request budget in the admin form", () => {
  test("its four sizes are shown and sent as numbers; one emptied is not sent", () => {
    const budget = { club_requests_per_minute: 60, club_request_burst: 1000, member_requests_per_minute: 12, member_request_burst: 60 };
    const form = settingsFormOf({ ...DEFAULT_SETTINGS, ...budget });
    expect(form).toMatchObject({ club_requests_per_minute: "60", club_request_burst: "1000", member_requests_per_minute: "12", member_request_burst: "60" });
    const decision = decideSettingsSave({ ...form, member_request_burst: "30", club_request_burst: " " });
    expect(decision).toEqual({ kind: "send", settings: { ...DEFAULT_SETTINGS, club_requests_per_minute: 60, member_requests_per_minute: 12, member_request_burst: 30 } });
  });
});
