/**
 * Which row of a table is being edited, with its draft: one row at a time;
 * a new row is a draft with no original, removed again by cancel.
 */
import { useCallback, useState } from "react";

export const NEW_ROW_KEY = "\u0000new";

export interface RowEdit<Row, Draft> {
  key: string;
  draft: Draft;
  /** The row as it was; null for a new row. */
  original: Row | null;
}

export interface RowEditor<Row, Draft> {
  editing: RowEdit<Row, Draft> | null;
  isNewRowOpen: boolean;
  isEditingKey(key: string): boolean;
  startNew(draft: Draft): void;
  startEdit(key: string, original: Row, draft: Draft): void;
  setDraft(update: Draft | ((draft: Draft) => Draft)): void;
  /** Closes the edit: the new row disappears, an edited row shows its view again. */
  close(): void;
}

export function useRowEditor<Row, Draft>(): RowEditor<Row, Draft> {
  const [editing, setEditing] = useState<RowEdit<Row, Draft> | null>(null);
  const setDraft = useCallback((update: Draft | ((draft: Draft) => Draft)) => {
    setEditing((current) => {
      if (!current) return current;
      const draft = typeof update === "function" ? (update as (draft: Draft) => Draft)(current.draft) : update;
      return { ...current, draft };
    });
  }, []);
  return {
    editing,
    isNewRowOpen: editing?.key === NEW_ROW_KEY,
    isEditingKey: (key) => editing?.key === key,
    startNew: (draft) => setEditing({ key: NEW_ROW_KEY, draft, original: null }),
    startEdit: (key, original, draft) => setEditing({ key, draft, original }),
    setDraft,
    close: () => setEditing(null),
  };
}
