/**
 * The shared table of rows that toggle between view and edit (the admin tables, decision 021).
 * Column headers on wide screens; below 768 px every row is a card and every cell carries
 * its column's name, so nothing scrolls sideways and each button keeps its full 44 px height.
 * The labels come from `data-label` through CSS, so a cell's text stays exactly what it shows.
 */
import type { ReactNode } from "react";
import "./data-table.css";

export interface DataTableColumn {
  header: string;
  /** The column of Edit/Delete/Save buttons: no label on a card, the buttons share the card's width. */
  isActions?: boolean;
}

export interface DataTableRow {
  key: string;
  cells: ReactNode[];
  isEditing?: boolean;
  testId?: string;
}

export interface DataTableProps {
  columns: DataTableColumn[];
  rows: DataTableRow[];
  /** Shown as the only row when there are no rows; nothing when absent. */
  emptyText?: string;
  testId?: string;
  /** Names the table for assistive technology, e.g. the section's title. */
  label?: string;
}

export function DataTable({ columns, rows, emptyText, testId, label }: DataTableProps) {
  return (
    <div className="data-table-wrap">
      <table className="data-table" data-testid={testId} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className={row.isEditing ? "data-table__row is-editing" : "data-table__row"} data-testid={row.testId}>
              {row.cells.map((cell, i) => {
                const column = columns[i];
                return (
                  <td
                    key={i}
                    className={column?.isActions ? "data-table__actions" : undefined}
                    data-label={column && !column.isActions && column.header ? column.header : undefined}
                  >
                    {column?.isActions ? <div className="data-table__buttons">{cell}</div> : cell}
                  </td>
                );
              })}
            </tr>
          ))}
          {rows.length === 0 && emptyText ? (
            <tr className="data-table__empty">
              <td colSpan={columns.length}>{emptyText}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
