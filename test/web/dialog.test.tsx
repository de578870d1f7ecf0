/** The shared dialog keeps the keyboard inside while open and gives focus back on close. */
import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { waitForFocus } from "./support/focus.ts";
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { Dialog } from "../../web/components/dialog.tsx";

function Harness() {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Behind</button>
      <Dialog
        isOpen={isOpen}
        title="Add Player"
        onClose={() => setOpen(false)}
        actions={
          <>
            <button type="button">Cancel</button>
            <button type="button">Save</button>
          </>
        }
      >
        <input aria-label="First name" />
      </Dialog>
    </>
  );
}

const tab = (shiftKey = false) => fireEvent.keyDown(document.activeElement ?? document.body, { key: "Tab", shiftKey });

describe("dialog focus", () => {
  test("takes focus with the next frame; Tab from the last control wraps to the first, Shift+Tab from the first to the last; Escape gives focus back", async () => {
    render(<Harness />);
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Add Player" });
    await waitForFocus(dialog);

    // From the panel itself, Shift+Tab goes to the last control, not behind the dialog.
    tab(true);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Save" }));
    tab();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "First name" }));
    tab(true);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Save" }));

    // Focus that escaped (a click behind the backdrop) is pulled back in on the next Tab.
    screen.getByRole("button", { name: "Behind" }).focus();
    tab();
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "First name" }));

    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
