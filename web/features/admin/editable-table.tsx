/**
 * The view/edit row table of Courses, Booking Windows and Frontpage Content (spec §2, §4 'Admin
 * rows'): one row at a time is edited; a new row sits at the top until saved, or is removed by
 * Cancel. Deleting asks first.
 */
import { useState, type ReactNode } from "react";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { Button } from "../../components/button.tsx";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { ConfirmDeleteDialog, ErrorLine } from "./admin-ui.tsx";

export interface EditableTableProps<Row, Draft> {
  title: string;
  addLabel: string;
  itemName: string;
  headers: string[];
  rows: Row[];
  rowKey: (row: Row) => string;
  newDraft: () => Draft;
  draftOf: (row: Row) => Draft;
  renderView: (row: Row) => ReactNode[];
  renderEdit: (draft: Draft, set: (next: Draft) => void, isNew: boolean) => ReactNode[];
  /** Client-side check before sending: the problem text, or null. */
  check: (draft: Draft) => string | null;
  save: (draft: Draft, original: Row | null) => Promise<void>;
  remove: (row: Row) => Promise<void>;
  /** Failure texts for a failed save or delete (the caller builds them from the error). */
  saveFailure: (error: unknown, isNew: boolean) => string;
  deleteFailure: (error: unknown) => string;
  loadError?: string | null;
  testId?: string;
}

const NEW_KEY = "\u0000new";

export function EditableTable<Row, Draft>(props: EditableTableProps<Row, Draft>) {
  const t = useText();
  const [editing, setEditing] = useState<{ key: string; draft: Draft; original: Row | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<Row | null>(null);

  async function save() {
    if (!editing) return;
    const problem = props.check(editing.draft);
    if (problem) return setError(problem);
    setSaving(true);
    try {
      await props.save(editing.draft, editing.original);
      setEditing(null);
      setError(null);
      showToast("success", { textKey: "admin.saved" satisfies UiTextKey });
    } catch (failure) {
      setError(props.saveFailure(failure, editing.original === null));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    const row = toDelete;
    setToDelete(null);
    if (row === null) return;
    try {
      await props.remove(row);
      setError(null);
      showToast("success", { textKey: "admin.deleted" satisfies UiTextKey });
    } catch (failure) {
      setError(props.deleteFailure(failure));
    }
  }

  const setDraft = (draft: Draft) => setEditing((e) => (e ? { ...e, draft } : e));
  const cancel = () => {
    setEditing(null);
    setError(null);
  };

  function editRow(key: string, draft: Draft, isNew: boolean) {
    return (
      <tr key={`edit-${key}`} className="admin-row--editing">
        {props.renderEdit(draft, setDraft, isNew).map((cell, i) => (
          <td key={i}>{cell}</td>
        ))}
        <td className="admin-actions">
          <Button onClick={() => void save()} isLoading={isSaving}>
            {t("admin.action.save")}
          </Button>
          <Button variant="secondary" onClick={cancel}>
            {t("admin.action.cancel")}
          </Button>
        </td>
      </tr>
    );
  }

  return (
    <section className="admin-section" data-testid={props.testId}>
      <div className="admin-section__head">
        <h2>{props.title}</h2>
        <Button disabled={editing !== null} onClick={() => (setError(null), setEditing({ key: NEW_KEY, draft: props.newDraft(), original: null }))}>
          {props.addLabel}
        </Button>
      </div>
      <ErrorLine text={error ?? props.loadError ?? null} />
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              {props.headers.map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th>{t("admin.column.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {editing?.key === NEW_KEY ? editRow(NEW_KEY, editing.draft, true) : null}
            {props.rows.map((row) => {
              const key = props.rowKey(row);
              if (editing?.key === key) return editRow(key, editing.draft, false);
              return (
                <tr key={key}>
                  {props.renderView(row).map((cell, i) => (
                    <td key={i}>{cell}</td>
                  ))}
                  <td className="admin-actions">
                    <Button variant="secondary" disabled={editing !== null} onClick={() => (setError(null), setEditing({ key, draft: props.draftOf(row), original: row }))}>
                      {t("admin.action.edit")}
                    </Button>
                    <Button variant="danger" disabled={editing !== null} onClick={() => setToDelete(row)}>
                      {t("admin.action.delete")}
                    </Button>
                  </td>
                </tr>
              );
            })}
            {props.rows.length === 0 && editing?.key !== NEW_KEY ? (
              <tr>
                <td colSpan={props.headers.length + 1}>{t("admin.empty")}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <ConfirmDeleteDialog item={toDelete === null ? null : props.itemName} onConfirm={() => void confirmDelete()} onCancel={() => setToDelete(null)} />
    </section>
  );
}
