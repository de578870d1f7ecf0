/**
 * Guest Rules: holidays (add with a required date and optional name; inline name edit;
 * other buttons disabled meanwhile) and the booking-rules table with its Add/Edit Rule dialog.
 */
import { useState } from "react";
import { checkHolidayDate, checkRule } from "../../../src/domain/admin-checks.ts";
import { formatLimit, formatRuleDays, NEW_RULE_DEFAULTS, type BookingRule, type Holiday } from "../../../src/domain/booking-rules.ts";
import { formatEventDate } from "../../../src/domain/manila-time.ts";
import { Button } from "../../components/button.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { useRowEditor } from "../../components/use-row-editor.ts";
import { Dialog } from "../../components/dialog.tsx";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { adminApi } from "./admin-api.ts";
import { ConfirmDeleteDialog, DayToggles, ErrorLine, failureText, problemText, useFullConfig } from "./admin-ui.tsx";

type Pending = { kind: "holiday"; holiday: Holiday } | { kind: "rule"; rule: BookingRule };

/** The dialog's fields as typed (numbers as text, so an empty limit can mean "no limit"). */
export interface RuleForm {
  priority: string;
  days_of_week: number[];
  applies_on_holidays: boolean;
  start_time: string;
  end_time: string;
  max_guests: string;
  min_players: string;
  max_players: string;
}

const text = (n: number | null) => (n === null ? "" : String(n));
export function ruleFormOf(rule: Omit<BookingRule, "id">): RuleForm {
  return {
    priority: String(rule.priority),
    days_of_week: [...rule.days_of_week],
    applies_on_holidays: rule.applies_on_holidays,
    start_time: rule.start_time,
    end_time: rule.end_time,
    max_guests: text(rule.max_guests),
    min_players: text(rule.min_players),
    max_players: text(rule.max_players),
  };
}

function RuleDialog({ rule, onClose, onSaved }: { rule: BookingRule | "new" | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const t = useText();
  const isOpen = rule !== null;
  const [form, setForm] = useState<RuleForm>(() => ruleFormOf(NEW_RULE_DEFAULTS));
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [openedFor, setOpenedFor] = useState<BookingRule | "new" | null>(null);
  if (rule !== openedFor) {
    // A new opening starts from the rule (or the new-rule defaults), never from the last draft.
    setOpenedFor(rule);
    setForm(ruleFormOf(rule && rule !== "new" ? rule : NEW_RULE_DEFAULTS));
    setError(null);
  }
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function save() {
    const checked = checkRule(form);
    if (!checked.ok) return setError(problemText(t, checked.problem));
    setSaving(true);
    try {
      if (rule && rule !== "new") await adminApi.updateRule(rule.id, checked.value);
      else await adminApi.addRule(checked.value);
      showToast("success", { textKey: "admin.saved" });
      await onSaved();
      onClose();
    } catch (failure) {
      setError(failureText(t, "admin.rules.save_failed", failure));
    } finally {
      setSaving(false);
    }
  }

  const numberField = (key: "priority" | "max_guests" | "min_players" | "max_players", label: string, isOptional: boolean) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="field__input" type="number" inputMode="numeric" value={form[key]} placeholder={isOptional ? "-" : undefined} onChange={(e) => set(key, e.target.value)} />
    </label>
  );

  return (
    <Dialog
      isOpen={isOpen}
      title={rule === "new" ? t("admin.rules.dialog_add") : t("admin.rules.dialog_edit")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("admin.action.cancel")}
          </Button>
          <Button onClick={() => void save()} isLoading={isSaving}>
            {t("admin.action.save")}
          </Button>
        </>
      }
    >
      <ErrorLine text={error} />
      {numberField("priority", t("admin.rules.priority"), false)}
      <div className="field">
        <span className="field__label">{t("admin.rules.days_of_week")}</span>
        <DayToggles label={t("admin.rules.days_of_week")} value={form.days_of_week} onChange={(days) => set("days_of_week", days)} />
      </div>
      <label className="admin-checkbox">
        <input type="checkbox" checked={form.applies_on_holidays} onChange={(e) => set("applies_on_holidays", e.target.checked)} />
        {t("admin.rules.applies_on_holidays")}
      </label>
      <div className="admin-field-pair">
        <label className="field">
          <span className="field__label">{t("admin.rules.start_time")}</span>
          <input className="field__input" type="time" value={form.start_time} onChange={(e) => set("start_time", e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t("admin.rules.end_time")}</span>
          <input className="field__input" type="time" value={form.end_time} onChange={(e) => set("end_time", e.target.value)} />
        </label>
      </div>
      <div className="admin-field-pair">
        {numberField("max_guests", t("admin.rules.max_guests"), true)}
        {numberField("min_players", t("admin.rules.min_players"), true)}
        {numberField("max_players", t("admin.rules.max_players"), true)}
      </div>
      <p className="page__note">{t("admin.rules.optional_hint")}</p>
    </Dialog>
  );
}

function HolidaysSection({
  holidays,
  reload,
  onDelete,
  setError,
}: {
  holidays: Holiday[];
  reload: () => Promise<void>;
  onDelete: (h: Holiday) => void;
  setError: (e: string | null) => void;
}) {
  const t = useText();
  const [date, setDate] = useState("");
  const [name, setName] = useState("");
  // The draft is the name: an edit sends the name only.
  const editor = useRowEditor<Holiday, string>();
  const { editing } = editor;

  async function add() {
    const checked = checkHolidayDate(date);
    if (!checked.ok) return setError(problemText(t, checked.problem));
    try {
      await adminApi.addHoliday({ date: checked.value, name: name.trim() || null });
      setDate("");
      setName("");
      setError(null);
      await reload();
    } catch (failure) {
      setError(failureText(t, "admin.holidays.add_failed", failure));
    }
  }

  async function saveName() {
    if (!editing) return;
    try {
      await adminApi.renameHoliday(editing.key, editing.draft.trim());
      editor.close();
      setError(null);
      await reload();
    } catch (failure) {
      setError(failureText(t, "admin.holidays.update_failed", failure));
    }
  }

  return (
    <div className="admin-holidays" data-testid="admin-holidays">
      <h3>{t("admin.holidays.title")}</h3>
      <div className="admin-holidays__add">
        <label className="field">
          <span className="field__label">{t("admin.holidays.date")}</span>
          <input className="field__input" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t("admin.holidays.name")}</span>
          <input className="field__input" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <Button onClick={() => void add()}>{t("admin.holidays.add")}</Button>
      </div>
      <ul className="admin-holidays__list">
        {holidays.length === 0 ? <li>{t("admin.holidays.none")}</li> : null}
        {holidays.map((h) => (
          <li key={h.date} className="admin-holidays__item">
            <span className="admin-holidays__date">{formatEventDate(h.date)}</span>
            {editing?.key === h.date ? (
              <>
                <input className="field__input" aria-label={t("admin.holidays.name")} value={editing.draft} onChange={(e) => editor.setDraft(e.target.value)} />
                <Button onClick={() => void saveName()}>{t("admin.action.save")}</Button>
                <Button variant="secondary" onClick={editor.close}>
                  {t("admin.action.cancel")}
                </Button>
              </>
            ) : (
              <>
                <span className="admin-holidays__name">{h.name || t("admin.holidays.unnamed")}</span>
                <Button variant="secondary" disabled={editing !== null} onClick={() => editor.startEdit(h.date, h, h.name ?? "")}>
                  {t("admin.action.edit")}
                </Button>
                <Button variant="danger" disabled={editing !== null} onClick={() => onDelete(h)}>
                  {t("admin.action.delete")}
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function GuestRulesTab() {
  const t = useText();
  const { config, error: loadError, reload } = useFullConfig("admin.rules.load_failed");
  const [error, setError] = useState<string | null>(null);
  const [dialogRule, setDialogRule] = useState<BookingRule | "new" | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  async function confirmDelete() {
    const item = pending;
    setPending(null);
    if (!item) return;
    try {
      if (item.kind === "holiday") await adminApi.deleteHoliday(item.holiday.date);
      else await adminApi.deleteRule(item.rule.id);
      setError(null);
      showToast("success", { textKey: "admin.deleted" });
      await reload();
    } catch (failure) {
      setError(failureText(t, "admin.rules.delete_failed", failure));
    }
  }

  const rules = config?.bookingRules ?? [];
  return (
    <section className="admin-section">
      <h2>{t("admin.rules.title")}</h2>
      <ErrorLine text={error ?? loadError} />
      <HolidaysSection holidays={config?.holidays ?? []} reload={reload} setError={setError} onDelete={(holiday) => setPending({ kind: "holiday", holiday })} />
      <div className="admin-section__head">
        <h3>{t("admin.rules.rules_title")}</h3>
        <Button onClick={() => setDialogRule("new")}>{t("admin.rules.add")}</Button>
      </div>
      <DataTable
        testId="admin-rules"
        label={t("admin.rules.rules_title")}
        columns={[
          { header: t("admin.rules.priority") },
          { header: t("admin.rules.days") },
          { header: t("admin.rules.time_range") },
          { header: t("admin.rules.max_guests") },
          { header: t("admin.rules.min_players") },
          { header: t("admin.rules.max_players") },
          { header: t("admin.column.actions"), isActions: true },
        ]}
        emptyText={t("admin.rules.none")}
        rows={rules.map((r) => ({
          key: String(r.id),
          cells: [
            r.priority,
            formatRuleDays(r),
            `${r.start_time} - ${r.end_time}`,
            formatLimit(r.max_guests),
            formatLimit(r.min_players),
            formatLimit(r.max_players),
            <>
              <Button variant="secondary" onClick={() => setDialogRule(r)}>
                {t("admin.action.edit")}
              </Button>
              <Button variant="danger" onClick={() => setPending({ kind: "rule", rule: r })}>
                {t("admin.action.delete")}
              </Button>
            </>,
          ],
        }))}
      />
      <RuleDialog rule={dialogRule} onClose={() => setDialogRule(null)} onSaved={reload} />
      <ConfirmDeleteDialog
        item={pending ? t(pending.kind === "holiday" ? "admin.item.holiday" : "admin.item.rule") : null}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}
