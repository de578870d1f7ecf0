/**
 * The admin areas' view/edit tables (Users, Courses, Booking Windows, Frontpage Content; decision
 * 021): one row at a time is edited; a new row sits at the top until saved, or is
 * removed by Cancel. Deleting asks first. Drawn by the shared DataTable, so rows become labelled
 * cards on a phone.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { Button } from "../../components/button.tsx";
import { DataTable, type DataTableRow } from "../../components/data-table.tsx";
import { NEW_ROW_KEY, useRowEditor } from "../../components/use-row-editor.ts";
import { showToast } from "../../lib/toast-store.ts";
import { useText } from "../../lib/text.ts";
import { ConfirmDeleteDialog, ErrorLine } from "./admin-ui.tsx";

export interface EditableTableProps<Row, Draft> {
  title: string;
  /** Id of the title, for a section named by it. */
  titleId?: string;
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
  check: (draft: Draft, isNew: boolean) => string | null;
  save: (draft: Draft, original: Row | null) => Promise<void>;
  remove: (row: Row) => Promise<void>;
  /** Failure texts for a failed save or delete (the caller builds them from the error). */
  saveFailure: (error: unknown, isNew: boolean) => string;
  deleteFailure: (error: unknown) => string;
  loadError?: string | null;
  testId?: string;
  /** Rows this admin may not edit or delete show their buttons disabled. */
  canEdit?: (row: Row) => boolean;
  canDelete?: (row: Row) => boolean;
  rowTestId?: (row: Row) => string;
  /** A note shown under the error line while a new row is open. */
  newRowNote?: string;
  /** The text of an empty table; none when null. */
  emptyText?: string | null;
}

export function EditableTable<Row, Draft>(props: EditableTableProps<Row, Draft>) {
  const t = useText();
  const editor = useRowEditor<Row, Draft>();
  const { editing } = editor;
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  // A check's message is about the row being edited: its fields point to the message (and say they
  // are invalid) so a screen reader reads it with them. The tabs render their own fields, so the
  // table ties them here rather than in every tab.
  useEffect(() => {
    const fields = [...(sectionRef.current?.querySelectorAll<HTMLElement>("tr.is-editing input, tr.is-editing select, tr.is-editing textarea") ?? [])];
    for (const field of fields) {
      if (error) {
        field.setAttribute("aria-describedby", errorId);
        field.setAttribute("aria-invalid", "true");
      } else {
        field.removeAttribute("aria-describedby");
        field.removeAttribute("aria-invalid");
      }
    }
  });
  const [isSaving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<Row | null>(null);

  async function save() {
    if (!editing) return;
    const problem = props.check(editing.draft, editing.original === null);
    if (problem) return setError(problem);
    setSaving(true);
    try {
      await props.save(editing.draft, editing.original);
      editor.close();
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

  const cancel = () => {
    editor.close();
    setError(null);
  };

  function editRow(key: string, draft: Draft, isNew: boolean): DataTableRow {
    return {
      key: `edit-${key}`,
      isEditing: true,
      cells: [
        ...props.renderEdit(draft, editor.setDraft, isNew),
        <>
          <Button onClick={() => void save()} isLoading={isSaving}>
            {t("admin.action.save")}
          </Button>
          <Button variant="secondary" onClick={cancel}>
            {t("admin.action.cancel")}
          </Button>
        </>,
      ],
    };
  }

  function viewRow(row: Row): DataTableRow {
    const key = props.rowKey(row);
    if (editing?.key === key) return editRow(key, editing.draft, false);
    return {
      key,
      testId: props.rowTestId?.(row),
      cells: [
        ...props.renderView(row),
        <>
          <Button
            variant="secondary"
            disabled={editing !== null || props.canEdit?.(row) === false}
            onClick={() => {
              setError(null);
              editor.startEdit(key, row, props.draftOf(row));
            }}
          >
            {t("admin.action.edit")}
          </Button>
          <Button variant="danger" disabled={editing !== null || props.canDelete?.(row) === false} onClick={() => setToDelete(row)}>
            {t("admin.action.delete")}
          </Button>
        </>,
      ],
    };
  }

  const rows = [...(editing?.key === NEW_ROW_KEY ? [editRow(NEW_ROW_KEY, editing.draft, true)] : []), ...props.rows.map(viewRow)];
  const emptyText = props.emptyText === undefined ? t("admin.empty") : (props.emptyText ?? undefined);

  return (
    <section ref={sectionRef} className="admin-section" data-testid={props.testId} aria-labelledby={props.titleId}>
      <div className="admin-section__head">
        <h2 id={props.titleId}>{props.title}</h2>
        <Button
          disabled={editing !== null}
          onClick={() => {
            setError(null);
            editor.startNew(props.newDraft());
          }}
        >
          {props.addLabel}
        </Button>
      </div>
      <ErrorLine id={errorId} text={error ?? props.loadError ?? null} />
      {editor.isNewRowOpen && props.newRowNote ? <p className="page__note">{props.newRowNote}</p> : null}
      <DataTable
        label={props.title}
        columns={[...props.headers.map((header) => ({ header })), { header: t("admin.column.actions"), isActions: true }]}
        rows={rows}
        emptyText={emptyText}
      />
      <ConfirmDeleteDialog item={toDelete === null ? null : props.itemName} onConfirm={() => void confirmDelete()} onCancel={() => setToDelete(null)} />
    </section>
  );
}
