/** App Settings and UI Text (the key-to-text map). */
import { useEffect, useMemo, useState } from "react";
import { makeProblem } from "../../../src/domain/problem.ts";
import { checkReleaseTime, LOG_LEVELS, type AppSettings, type ExtraSettings, type LogLevel } from "../../../src/domain/settings.ts";
import { DEFAULT_UI_TEXT } from "../../../src/domain/ui-text/index.ts";
import { Button } from "../../components/button.tsx";
import { LoadingBlock } from "../../components/spinner.tsx";
import { ApiError } from "../../lib/api.ts";
import { useTextStore } from "../../lib/text-store.ts";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import type { AdminSettingsValues } from "../../../src/features/admin/admin.schemas.ts";
import { adminApi } from "./admin-api.ts";
import { ErrorLine, failureText } from "./admin-ui.tsx";

type WatchSettingValues = Pick<AdminSettingsValues, "max_active_watches" | "watch_poll_seconds" | "readiness_check_time">;
type BudgetSettingValues = Pick<AdminSettingsValues, (typeof BUDGET_KEYS)[number]>;
/** The club request budget (decision 145). */
const BUDGET_KEYS = ["club_requests_per_minute", "club_request_burst", "member_requests_per_minute", "member_request_burst"] as const;

const NUMBER_KEYS = ["release_days_before", "ui_date_range_days", "scraper_date_range_days", "booking_roll_hour", "smart_refresh_threshold_seconds"] as const;
type NumberKey = (typeof NUMBER_KEYS)[number];

/** The form as typed: every field as text, the JSON list as JSON text. */
export type SettingsForm = Record<NumberKey | "release_time" | "courses_to_skip_on_full" | "scraper_username", string> & { log_level: LogLevel } & Partial<
    Record<ExtraKey, string>
  >;

/**
 * Settings beyond the product's (the club retry window, slot watches, the readiness check, the club
 * request budget): shown and sent when the server has them; one left empty is not sent, and the
 * server keeps its stored value.
 */
const EXTRA_KEYS = ["club_retry_minutes", "max_active_watches", "watch_poll_seconds", "readiness_check_time", ...BUDGET_KEYS] as const;
type ExtraKey = (typeof EXTRA_KEYS)[number];
/** The one extra setting that is a time of day rather than a number. */
const isTextExtra = (key: ExtraKey) => key === "readiness_check_time";
type ExtraValues = Partial<Pick<ExtraSettings, "club_retry_minutes"> & WatchSettingValues & BudgetSettingValues>;
type EditedSettings = AppSettings & ExtraValues;

export function settingsFormOf(settings: EditedSettings): SettingsForm {
  const extras: Partial<Record<ExtraKey, string>> = {};
  for (const key of EXTRA_KEYS) if (settings[key] !== undefined) extras[key] = String(settings[key]);
  return {
    ...extras,
    release_days_before: String(settings.release_days_before),
    release_time: settings.release_time,
    ui_date_range_days: String(settings.ui_date_range_days),
    scraper_date_range_days: String(settings.scraper_date_range_days),
    booking_roll_hour: String(settings.booking_roll_hour),
    courses_to_skip_on_full: JSON.stringify(settings.courses_to_skip_on_full),
    smart_refresh_threshold_seconds: String(settings.smart_refresh_threshold_seconds),
    log_level: settings.log_level,
    scraper_username: settings.scraper_username,
  };
}

export type SettingsDecision = { kind: "send"; settings: EditedSettings } | { kind: "error"; message: string } | { kind: "abandon" };

/**
 * A bad release time is an error and nothing is sent; a JSON setting that does not parse
 * abandons the save silently; numbers are converted to numbers. An emptied number field is an
 * error too (it is never sent as 0, which the server would refuse anyway).
 */
export function decideSettingsSave(form: SettingsForm): SettingsDecision {
  const problem = checkReleaseTime(form.release_time.trim());
  if (problem) return { kind: "error", message: problem.message };
  const emptied = NUMBER_KEYS.find((key) => form[key].trim() === "" || !Number.isFinite(Number(form[key])));
  if (emptied) return { kind: "error", message: makeProblem("settings.number_required", { key: emptied }).message };
  let courses: unknown;
  try {
    courses = JSON.parse(form.courses_to_skip_on_full);
  } catch {
    return { kind: "abandon" };
  }
  const numbers = Object.fromEntries(NUMBER_KEYS.map((key) => [key, Number(form[key])])) as Record<NumberKey, number>;
  const extras: Record<string, string | number> = {};
  for (const key of EXTRA_KEYS) {
    const value = form[key]?.trim();
    if (value) extras[key] = isTextExtra(key) ? value : Number(value);
  }
  return {
    kind: "send",
    settings: {
      ...(extras as ExtraValues),
      ...numbers,
      release_time: form.release_time.trim(),
      courses_to_skip_on_full: courses as string[],
      log_level: form.log_level,
      scraper_username: form.scraper_username.trim(),
    },
  };
}

export function AppSettingsTab() {
  const t = useText();
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per visit of the tab, not again when the texts change.
  useEffect(() => {
    adminApi
      .settings()
      .then((view) => setForm(settingsFormOf(view.settings)))
      .catch((failure) => setError(failureText(t, "admin.settings.load_failed", failure)));
  }, []);

  async function save() {
    if (!form) return;
    const decision = decideSettingsSave(form);
    if (decision.kind === "abandon") return;
    if (decision.kind === "error") {
      setError(decision.message);
      return;
    }
    setSaving(true);
    try {
      const saved = await adminApi.saveSettings(decision.settings);
      setForm(settingsFormOf(saved.settings));
      setError(null);
      showToast("success", { textKey: "admin.settings.saved" });
    } catch (failure) {
      const message = failure instanceof Error && failure.message ? failure.message : t("admin.settings.save_failed");
      setError(message);
      showToast("error", { message });
    } finally {
      setSaving(false);
    }
  }

  if (!form) {
    return (
      <section className="admin-section">
        <h2>{t("admin.settings.title")}</h2>
        {error ? <ErrorLine text={error} /> : <LoadingBlock label={t("common.loading")} />}
      </section>
    );
  }

  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => setForm((f) => (f ? { ...f, [key]: value } : f));
  const textField = (key: Exclude<keyof SettingsForm, "log_level">, type: "number" | "text" = "text") => (
    // biome-ignore lint/a11y/noLabelWithoutControl: the label holds its control, a textarea or an input chosen by the field.
    <label className="field" key={key}>
      <span className="field__label">{t(`admin.settings.${key}`)}</span>
      {key === "courses_to_skip_on_full" ? (
        <textarea rows={2} value={form[key]} onChange={(e) => set(key, e.target.value)} />
      ) : (
        <input className="field__input" name={key} type={type} value={form[key]} onChange={(e) => set(key, e.target.value)} />
      )}
    </label>
  );

  return (
    <section className="admin-section admin-settings" aria-labelledby="admin-settings-title">
      <h2 id="admin-settings-title">{t("admin.settings.title")}</h2>
      <ErrorLine text={error} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {textField("release_days_before", "number")}
        {textField("release_time")}
        {textField("ui_date_range_days", "number")}
        {textField("scraper_date_range_days", "number")}
        {textField("booking_roll_hour", "number")}
        {textField("courses_to_skip_on_full")}
        {textField("smart_refresh_threshold_seconds", "number")}
        <label className="field">
          <span className="field__label">{t("admin.settings.log_level")}</span>
          <select name="log_level" value={form.log_level} onChange={(e) => set("log_level", e.target.value as LogLevel)}>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {t(`admin.settings.log_${level}`)}
              </option>
            ))}
          </select>
        </label>
        {textField("scraper_username")}
        {EXTRA_KEYS.filter((key) => form[key] !== undefined).map((key) => textField(key, isTextExtra(key) ? "text" : "number"))}
        <Button type="submit" isLoading={isSaving}>
          {t("admin.settings.save")}
        </Button>
      </form>
    </section>
  );
}

export function UiTextTab() {
  const t = useText();
  const [texts, setTexts] = useState<Record<string, string> | null>(null);
  const [filter, setFilter] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per visit of the tab, not again when the texts change.
  useEffect(() => {
    adminApi
      .settings()
      .then((view) => setTexts({ ...(DEFAULT_UI_TEXT as Record<string, string>), ...view.uiText }))
      .catch((failure) => setError(failureText(t, "admin.ui_text.load_failed", failure)));
  }, []);

  const keys = useMemo(() => Object.keys(texts ?? {}).sort(), [texts]);
  const needle = filter.trim().toLowerCase();
  const shown = needle ? keys.filter((k) => k.toLowerCase().includes(needle) || (texts?.[k] ?? "").toLowerCase().includes(needle)) : keys;

  async function save() {
    if (!texts) return;
    setSaving(true);
    try {
      const saved = await adminApi.saveUiText(texts);
      // This browser shows the new texts at once; the others hear uiTextUpdated.
      useTextStore.getState().setOverrides(saved.uiText);
      setError(null);
      showToast("success", { textKey: "admin.ui_text.saved" });
    } catch (failure) {
      setError(failure instanceof ApiError && failure.serverMessage ? `${t("admin.ui_text.save_failed")} ${failure.serverMessage}` : t("admin.ui_text.save_failed"));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="admin-section" aria-labelledby="admin-ui-text-title">
      <div className="admin-section__head">
        <h2 id="admin-ui-text-title">{t("admin.ui_text.title")}</h2>
        <Button onClick={() => void save()} isLoading={isSaving} disabled={!texts}>
          {t("admin.ui_text.save")}
        </Button>
      </div>
      <ErrorLine text={error} />
      {texts ? (
        <>
          <label className="field">
            <span className="field__label">{t("admin.ui_text.filter")}</span>
            <input className="field__input" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </label>
          <p className="page__note">{t("admin.ui_text.count", { shown: shown.length, total: keys.length })}</p>
          <div className="admin-ui-text">
            {shown.map((key) => (
              <label key={key} className="admin-ui-text__row">
                <code className="admin-ui-text__key">{key}</code>
                <textarea rows={1} aria-label={key} value={texts[key]} onChange={(e) => setTexts({ ...texts, [key]: e.target.value })} />
              </label>
            ))}
          </div>
        </>
      ) : error ? null : (
        <LoadingBlock label={t("common.loading")} />
      )}
    </section>
  );
}
