/**
 * Waits until `element` has the focus. A plain `waitFor(() => expect(document.activeElement).toBe(el))`
 * formats both elements on every failed try, and happy-dom elements print as the whole document
 * graph: seconds of CPU a try, so a focus that comes with the next frame could time the test out.
 */
import { waitFor } from "@testing-library/react";

const describe = (element: Element | null) =>
  element ? `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} role=${element.getAttribute("role") ?? "-"}>` : "nothing";

export async function waitForFocus(element: Element): Promise<void> {
  await waitFor(() => {
    if (document.activeElement !== element) throw new Error(`focus is on ${describe(document.activeElement)}, not on ${describe(element)}`);
  });
}
