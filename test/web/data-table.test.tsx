import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { act, render, renderHook, within } from "@testing-library/react";
import { DataTable } from "../../web/components/data-table.tsx";
import { NEW_ROW_KEY, useRowEditor } from "../../web/components/use-row-editor.ts";

const columns = [{ header: "Name" }, { header: "Days" }, { header: "Actions", isActions: true }];

describe("the shared table", () => {
  test("column headers, and every cell labelled with its column for the card layout", () => {
    const { container } = render(
      <DataTable
        testId="t"
        label="Courses"
        columns={columns}
        rows={[
          { key: "a", cells: ["Masters", "Mon Tue", <button type="button">Edit</button>] },
          { key: "b", cells: ["Legends", "Sun", <button type="button">Edit</button>], isEditing: true, testId: "row-b" },
        ]}
      />,
    );
    const table = within(container).getByRole("table", { name: "Courses" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Name", "Days", "Actions"]);
    const [, first, second] = within(table).getAllByRole("row");
    const cells = within(first).getAllByRole("cell");
    expect(cells.map((c) => c.getAttribute("data-label"))).toEqual(["Name", "Days", null]);
    // The label is drawn by CSS, so a cell's text is only what it shows.
    expect(cells.map((c) => c.textContent)).toEqual(["Masters", "Mon Tue", "Edit"]);
    expect(cells[2].className).toBe("data-table__actions");
    expect(second.className).toContain("is-editing");
    expect(second.getAttribute("data-testid")).toBe("row-b");
    expect(first.className).not.toContain("is-editing");
  });

  test("an empty table says so across every column, or shows nothing when there is no text", () => {
    const { container, rerender } = render(<DataTable columns={columns} rows={[]} emptyText="No items yet." />);
    const empty = within(container).getByText("No items yet.");
    expect(empty.getAttribute("colspan")).toBe("3");
    rerender(<DataTable columns={columns} rows={[]} />);
    expect(within(container).getAllByRole("row")).toHaveLength(1);
  });
});

describe("the row editor", () => {
  test("one row at a time: a new row is opened and removed by close; an edit keeps its original", () => {
    const { result } = renderHook(() => useRowEditor<{ id: string }, string>());
    expect(result.current.editing).toBeNull();
    act(() => result.current.startNew("draft"));
    expect(result.current.isNewRowOpen).toBe(true);
    expect(result.current.editing).toEqual({ key: NEW_ROW_KEY, draft: "draft", original: null });
    act(() => result.current.setDraft((d) => `${d}!`));
    expect(result.current.editing?.draft).toBe("draft!");
    act(() => result.current.close());
    expect(result.current.editing).toBeNull();
    const row = { id: "x" };
    act(() => result.current.startEdit("x", row, "name"));
    expect(result.current.isNewRowOpen).toBe(false);
    expect(result.current.isEditingKey("x")).toBe(true);
    expect(result.current.isEditingKey("y")).toBe(false);
    expect(result.current.editing?.original).toBe(row);
    act(() => result.current.setDraft("other"));
    expect(result.current.editing?.draft).toBe("other");
  });

  test("setting a draft with nothing open changes nothing", () => {
    const { result } = renderHook(() => useRowEditor<{ id: string }, string>());
    act(() => result.current.setDraft("lost"));
    expect(result.current.editing).toBeNull();
  });
});
