/** Courses, Booking Windows and Frontpage Content: view/edit rows over full-config. */
import { checkCourse, checkMessage, checkWindow } from "../../../src/domain/admin-checks.ts";
import { sortAdvisories } from "../../../src/domain/advisories.ts";
import { formatEventDate, manilaDate } from "../../../src/domain/manila-time.ts";
import { NEW_WINDOW_DEFAULTS, WINDOW_KEYS, windowCoverage } from "../../../src/domain/windows.ts";
import { useText } from "../../lib/text.ts";
import { adminApi, type AdminCourseView, type BookingWindowView, type FrontpageMessage } from "./admin-api.ts";
import { DayToggles, failureText, formatDays, problemText, useFullConfig } from "./admin-ui.tsx";
import { EditableTable } from "./editable-table.tsx";

/** The draft of a course row: the club's other names edited as one comma-separated field. */
type CourseDraft = Omit<AdminCourseView, "aliases"> & { aliases: string };
const aliasesOf = (text: string) =>
  text
    .split(",")
    .map((alias) => alias.trim())
    .filter(Boolean);

export function CoursesTab() {
  const t = useText();
  const { config, error, reload } = useFullConfig();
  return (
    <EditableTable<AdminCourseView, CourseDraft>
      testId="admin-courses"
      title={t("admin.courses.title")}
      addLabel={t("admin.courses.add")}
      itemName={t("admin.item.course")}
      headers={[t("admin.courses.id"), t("admin.courses.name"), t("admin.courses.days_active"), t("admin.courses.aliases")]}
      rows={config?.courses ?? []}
      rowKey={(c) => c.id}
      newDraft={() => ({ id: "", name: "", days_active: [], aliases: "" })}
      draftOf={(c) => ({ ...c, aliases: c.aliases.join(", ") })}
      renderView={(c) => [c.id, c.name, formatDays(c.days_active), c.aliases.length > 0 ? c.aliases.join(", ") : "-"]}
      renderEdit={(d, set, isNew) => [
        isNew ? <input className="field__input" aria-label={t("admin.courses.id")} value={d.id} onChange={(e) => set({ ...d, id: e.target.value })} /> : d.id,
        <input className="field__input" aria-label={t("admin.courses.name")} value={d.name} onChange={(e) => set({ ...d, name: e.target.value })} />,
        <DayToggles label={t("admin.courses.days_active")} value={d.days_active} onChange={(days) => set({ ...d, days_active: days })} />,
        <input className="field__input" aria-label={t("admin.courses.aliases")} value={d.aliases} onChange={(e) => set({ ...d, aliases: e.target.value })} />,
      ]}
      check={(d) => {
        const checked = checkCourse(d);
        return checked.ok ? null : problemText(t, checked.problem);
      }}
      save={async (d, original) => {
        const course = { ...d, id: d.id.trim(), name: d.name.trim(), aliases: aliasesOf(d.aliases) };
        if (original) await adminApi.updateCourse(course);
        else await adminApi.addCourse(course);
        await reload();
      }}
      remove={async (c) => {
        await adminApi.deleteCourse(c.id);
        await reload();
      }}
      saveFailure={(e) => failureText(t, "admin.courses.save_failed", e, "admin.item.save_failed")}
      deleteFailure={(e) => failureText(t, "admin.courses.delete_failed", e, "admin.item.delete_failed")}
      loadError={error}
    />
  );
}

type WindowDraft = Omit<BookingWindowView, "id">;

/** Which courses and days each window set reaches now, so a window added to a set no course plays is seen. */
function WindowCoverage({ courses }: { courses: readonly AdminCourseView[] }) {
  const t = useText();
  const coverage = windowCoverage(courses);
  return (
    <section className="card admin-windows__coverage" data-testid="admin-windows-coverage" aria-labelledby="admin-windows-coverage-title">
      <h3 id="admin-windows-coverage-title">{t("admin.windows.coverage_title")}</h3>
      <p className="page__note">{t("admin.windows.coverage_rule")}</p>
      <ul>
        {WINDOW_KEYS.map((key) => (
          <li key={key}>
            {coverage[key].length === 0
              ? t("admin.windows.coverage_none", { key })
              : t("admin.windows.coverage_line", { key, courses: coverage[key].map((c) => `${c.course} (${formatDays(c.days)})`).join(", ") })}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BookingWindowsTab() {
  const t = useText();
  const { config, error, reload } = useFullConfig();
  return (
    <>
      <EditableTable<BookingWindowView, WindowDraft>
        testId="admin-windows"
        title={t("admin.windows.title")}
        addLabel={t("admin.windows.add")}
        itemName={t("admin.item.window")}
        headers={[t("admin.windows.rule_key"), t("admin.windows.start_time"), t("admin.windows.end_time")]}
        rows={config?.bookingWindows ?? []}
        rowKey={(w) => String(w.id)}
        newDraft={() => ({ rule_key: "DEFAULT", ...NEW_WINDOW_DEFAULTS })}
        draftOf={({ id: _id, ...w }) => w}
        renderView={(w) => [w.rule_key, w.start_time, w.end_time]}
        renderEdit={(d, set) => [
          <input className="field__input" aria-label={t("admin.windows.rule_key")} value={d.rule_key} onChange={(e) => set({ ...d, rule_key: e.target.value.toUpperCase() })} />,
          <input
            className="field__input"
            aria-label={t("admin.windows.start_time")}
            placeholder="HH:MM"
            value={d.start_time}
            onChange={(e) => set({ ...d, start_time: e.target.value })}
          />,
          <input
            className="field__input"
            aria-label={t("admin.windows.end_time")}
            placeholder="HH:MM"
            value={d.end_time}
            onChange={(e) => set({ ...d, end_time: e.target.value })}
          />,
        ]}
        check={(d) => {
          const checked = checkWindow(d);
          return checked.ok ? null : problemText(t, checked.problem);
        }}
        save={async (d, original) => {
          const checked = checkWindow(d);
          const payload = checked.ok ? checked.value : d;
          if (original) await adminApi.updateWindow(original.id, payload);
          else await adminApi.addWindow(payload);
          await reload();
        }}
        remove={async (w) => {
          await adminApi.deleteWindow(w.id);
          await reload();
        }}
        saveFailure={(e, isNew) => failureText(t, isNew ? "admin.windows.create_failed" : "admin.windows.update_failed", e, "admin.item.save_failed")}
        deleteFailure={(e) => failureText(t, "admin.windows.delete_failed", e, "admin.item.delete_failed")}
        loadError={error}
      />
      {config ? <WindowCoverage courses={config.courses} /> : null}
    </>
  );
}

type MessageDraft = { title: string; content: string; is_active: boolean; eventDate: string };

export function FrontpageTab() {
  const t = useText();
  const { config, error, reload } = useFullConfig();
  const rows = sortAdvisories(config?.frontpageMessages ?? []);
  return (
    <EditableTable<FrontpageMessage, MessageDraft>
      testId="admin-frontpage"
      title={t("admin.frontpage.title")}
      addLabel={t("admin.frontpage.add")}
      itemName={t("admin.item.advisory")}
      headers={[t("admin.frontpage.title_field"), t("admin.frontpage.content"), t("admin.frontpage.event_date"), t("admin.frontpage.is_active"), t("admin.frontpage.created")]}
      rows={rows}
      rowKey={(m) => String(m.id)}
      newDraft={() => ({ title: "", content: "", is_active: true, eventDate: "" })}
      draftOf={(m) => ({ title: m.title, content: m.content, is_active: m.is_active, eventDate: m.eventDate ?? "" })}
      renderView={(m) => [
        m.title,
        <span className="admin-pre">{m.content}</span>,
        m.eventDate ? formatEventDate(m.eventDate) : "-",
        <span className={m.is_active ? "admin-status--ok" : "admin-status--bad"}>{m.is_active ? t("admin.frontpage.active") : t("admin.frontpage.hidden")}</span>,
        formatEventDate(manilaDate(m.created_at)),
      ]}
      renderEdit={(d, set) => [
        <input className="field__input" aria-label={t("admin.frontpage.title_field")} value={d.title} onChange={(e) => set({ ...d, title: e.target.value })} />,
        <textarea aria-label={t("admin.frontpage.content")} rows={4} value={d.content} onChange={(e) => set({ ...d, content: e.target.value })} />,
        <input className="field__input" type="date" aria-label={t("admin.frontpage.event_date")} value={d.eventDate} onChange={(e) => set({ ...d, eventDate: e.target.value })} />,
        <input type="checkbox" aria-label={t("admin.frontpage.is_active")} checked={d.is_active} onChange={(e) => set({ ...d, is_active: e.target.checked })} />,
        "",
      ]}
      check={(d) => {
        const checked = checkMessage(d);
        return checked.ok ? null : problemText(t, checked.problem);
      }}
      save={async (d, original) => {
        const payload = { title: d.title.trim(), content: d.content.trim(), is_active: d.is_active, eventDate: d.eventDate || null };
        if (original) await adminApi.updateMessage(original.id, payload);
        else await adminApi.addMessage(payload);
        await reload();
      }}
      remove={async (m) => {
        await adminApi.deleteMessage(m.id);
        await reload();
      }}
      saveFailure={(e, isNew) => failureText(t, isNew ? "admin.frontpage.create_failed" : "admin.frontpage.update_failed", e, "admin.item.save_failed")}
      deleteFailure={(e) => failureText(t, "admin.frontpage.delete_failed", e, "admin.item.delete_failed")}
      loadError={error}
    />
  );
}
