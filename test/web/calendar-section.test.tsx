import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordedCall } from "./support/fetch-mock.ts";

const { act, cleanup, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { ToastViewport } = await import("../../web/components/toast-viewport.tsx");
const { CalendarSection } = await import("../../web/features/profile/calendar-section.tsx");
const { useTextStore } = await import("../../web/lib/text-store.ts");
const { useToastStore } = await import("../../web/lib/toast-store.ts");
const { jsonResponse, mockFetch, restoreFetch } = await import("./support/fetch-mock.ts");

const FIRST = `http://localhost/v1/calendar/${"a".repeat(43)}.ics`;
const SECOND = `http://localhost/v1/calendar/${"b".repeat(43)}.ics`;

const page = () => within(document.body);
let calls: RecordedCall[];
let current: string | null;
let posted: string[];
const originalClipboard = Object.getOwnPropertyDescriptor(navigator, "clipboard");
const originalExec = document.execCommand;

function setClipboard(value: unknown) {
  Object.defineProperty(navigator, "clipboard", { value, configurable: true });
}

beforeEach(() => {
  cleanup();
  document.body.innerHTML = "";
  useTextStore.setState({ overrides: {} });
  current = null;
  posted = [FIRST, SECOND];
  calls = mockFetch((call) => {
    if (call.url !== "/v1/my/calendar") return undefined;
    if (call.method === "POST") current = posted.shift() ?? null;
    return jsonResponse({ url: current, createdAt: current ? 1 : null });
  });
});

afterEach(() => {
  cleanup();
  restoreFetch();
  useToastStore.getState().clearToasts();
  if (originalClipboard) Object.defineProperty(navigator, "clipboard", originalClipboard);
  else delete (navigator as { clipboard?: unknown }).clipboard;
  document.execCommand = originalExec;
});

async function renderSection() {
  render(
    <>
      <CalendarSection />
      <ToastViewport />
    </>,
  );
  await act(async () => {});
}

const addressField = () => page().getByLabelText("Your calendar address") as HTMLInputElement;

describe("the calendar address on the Profile page", () => {
  test("none yet: 'Make an address' makes one; Copy puts it on the clipboard", async () => {
    const copied: string[] = [];
    setClipboard({ writeText: async (text: string) => void copied.push(text) });
    await renderSection();
    expect(page().getByText("You have no calendar address yet.")).toBeTruthy();
    fireEvent.click(page().getByRole("button", { name: "Make an address" }));
    await waitFor(() => expect(addressField().value).toBe(FIRST));
    expect(calls.filter((c) => c.method === "POST" && c.url === "/v1/my/calendar").map((c) => c.headers["content-type"])).toEqual(["application/json"]);
    fireEvent.click(page().getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(copied).toEqual([FIRST]));
    await page().findByText("Calendar address copied.");
  });

  test("without the clipboard API the field is selected and copied the older way; when that fails too, the member is told", async () => {
    current = FIRST;
    setClipboard(undefined);
    let execResult = true;
    const commands: string[] = [];
    document.execCommand = ((command: string) => {
      commands.push(command);
      return execResult;
    }) as typeof document.execCommand;
    await renderSection();
    await waitFor(() => expect(addressField().value).toBe(FIRST));
    fireEvent.click(page().getByRole("button", { name: "Copy" }));
    await page().findByText("Calendar address copied.");
    expect(commands).toEqual(["copy"]);
    expect(document.activeElement).toBe(addressField());

    execResult = false;
    setClipboard({ writeText: async () => Promise.reject(new Error("denied")) });
    fireEvent.click(page().getByRole("button", { name: "Copy" }));
    expect((await page().findByRole("alert")).textContent).toBe("Copying did not work: select the address and copy it yourself.");
  });

  test("'Make a new address' asks first; keeping the old one sends nothing, confirming replaces it", async () => {
    current = FIRST;
    posted = [SECOND];
    await renderSection();
    await waitFor(() => expect(addressField().value).toBe(FIRST));
    fireEvent.click(page().getByRole("button", { name: "Make a new address" }));
    const dialog = within(page().getByRole("dialog"));
    expect(dialog.getByText(/stops working at once/)).toBeTruthy();
    fireEvent.click(dialog.getByRole("button", { name: "Keep the old one" }));
    expect(page().queryByRole("dialog")).toBeNull();
    expect(calls.filter((c) => c.method === "POST" && c.url === "/v1/my/calendar")).toHaveLength(0);

    fireEvent.click(page().getByRole("button", { name: "Make a new address" }));
    fireEvent.click(within(page().getByRole("dialog")).getByRole("button", { name: "Make a new address" }));
    await waitFor(() => expect(addressField().value).toBe(SECOND));
    expect(calls.filter((c) => c.method === "POST" && c.url === "/v1/my/calendar")).toHaveLength(1);
    await page().findByText("Your new calendar address is ready; the old one no longer works.");
  });

  test("an address that cannot be loaded says so", async () => {
    restoreFetch();
    mockFetch((call) => (call.url === "/v1/my/calendar" ? jsonResponse({ message: "Something went wrong. Please try again.", errorKey: "common.unexpected" }, 500) : undefined));
    await renderSection();
    expect((await page().findByRole("alert")).textContent).toBe("The calendar address could not be loaded. Please try again.");
  });
});
