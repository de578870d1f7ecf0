/** Pieces every admin tab shares: failure texts, the delete confirmation, day toggles, the config loader. */
import { useCallback, useEffect, useState } from "react";
import type { AdminProblem } from "../../../src/domain/admin-checks.ts";
import { shortDayName } from "../../../src/domain/manila-time.ts";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { ApiError } from "../../lib/api.ts";
import { onResourcesChanged } from "../../lib/resources.ts";
import { useText, type Translate } from "../../lib/text.ts";
import { adminApi, type FullConfig } from "./admin-api.ts";

export const WEEK_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * The product's failure text (e.g. 'Failed to save course ({status})'), followed by the server's own
 * message when it sent one (a validation message says what to fix). Without an HTTP status (the
 * network failed) `networkKey` gives the status-free text.
 */
export function failureText(t: Translate, key: UiTextKey, error: unknown, networkKey: UiTextKey = key): string {
  if (!(error instanceof ApiError)) return t(networkKey, { status: "-" });
  const base = t(key, { status: error.status });
  const detail = error.serverMessage;
  if (!detail || detail === base) return base;
  return `${base}${/[.!?]$/.test(base) ? " " : ": "}${detail}`;
}

export function problemText(t: Translate, problem: AdminProblem): string {
  return t(problem.key, problem.context);
}

export function ErrorLine({ text, id }: { text: string | null; id?: string }) {
  if (!text) return null;
  return (
    <p className="form-error" role="alert" id={id}>
      {text}
    </p>
  );
}

export function ConfirmDeleteDialog({ item, onConfirm, onCancel }: { item: string | null; onConfirm: () => void; onCancel: () => void }) {
  const t = useText();
  return (
    <Dialog
      isOpen={item !== null}
      title={t("admin.confirm.title")}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {t("admin.action.cancel")}
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {t("admin.action.confirm_delete")}
          </Button>
        </>
      }
    >
      <p>{t("admin.confirm.delete", { item: item ?? "" })}</p>
    </Dialog>
  );
}

/** Toggle buttons for days 1 (Mon) … 7 (Sun); the value is kept sorted. */
export function DayToggles({ value, onChange, label }: { value: readonly number[]; onChange: (days: number[]) => void; label: string }) {
  return (
    <div className="admin-days" role="group" aria-label={label}>
      {WEEK_DAYS.map((day) => {
        const isOn = value.includes(day);
        return (
          <button
            key={day}
            type="button"
            className={`admin-days__day${isOn ? " is-on" : ""}`}
            aria-pressed={isOn}
            onClick={() => onChange(isOn ? value.filter((d) => d !== day) : [...value, day].sort((a, b) => a - b))}
          >
            {shortDayName(day)}
          </button>
        );
      })}
    </div>
  );
}

export function formatDays(days: readonly number[]): string {
  return days.length > 0 ? days.map(shortDayName).join(" ") : "-";
}

/** GET /v1/admin/full-config, reloaded when a change names what it shows. */
export function useFullConfig(loadFailedKey: UiTextKey = "admin.config.load_failed") {
  const t = useText();
  const [config, setConfig] = useState<FullConfig | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setConfig(await adminApi.fullConfig());
      setError(null);
    } catch (failure) {
      setError(failureText(t, loadFailedKey, failure));
    }
  }, [t, loadFailedKey]);
  useEffect(() => {
    void reload();
    // What the full configuration shows: the settings and schedule, and the announcements.
    return onResourcesChanged(["settings", "advisories"], () => void reload());
  }, [reload]);
  return { config, error, reload };
}

/** Failure texts longer than this show a summary line, with the whole text on demand. */
const SUMMARY_LENGTH = 80;

/** The summary line of a long failure text: its first clause, or its start cut at a word. */
export function summaryOf(text: string): string {
  const clause = /^(.{8,80}?)(?::\s|\.\s|;\s)/.exec(text)?.[1];
  if (clause) return clause;
  if (text.length <= SUMMARY_LENGTH) return text;
  const cut = text.slice(0, SUMMARY_LENGTH - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), SUMMARY_LENGTH / 2))}…`;
}

/** A failure text as the monitor shows it: short ones whole, long ones as a summary with the details on demand. */
export function FailureText({ text }: { text: string }) {
  const t = useText();
  if (text.length <= SUMMARY_LENGTH) return <>{text}</>;
  return (
    <details className="admin-failure">
      <summary>
        {summaryOf(text)} <span className="admin-failure__more">{t("admin.monitor.details")}</span>
      </summary>
      <p className="admin-failure__full">{text}</p>
    </details>
  );
}
