import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { SavedPlayer } from "../../src/domain/players.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import type { FakeWebSocket as FakeSocket } from "./support/fake-websocket.ts";
import type { RecordedCall } from "./support/fetch-mock.ts";

// Loaded after the DOM globals exist: react-dom and Testing Library read them when they load.
const { act, cleanup, fireEvent, render, waitFor, within } = await import("@testing-library/react");
const { ToastViewport } = await import("../../web/components/toast-viewport.tsx");
const { PlayersView } = await import("../../web/features/players/players-view.tsx");
const { useSessionStore } = await import("../../web/lib/session-store.ts");
const { appSocket } = await import("../../web/lib/socket.ts");
const { useTextStore } = await import("../../web/lib/text-store.ts");
const { useToastStore } = await import("../../web/lib/toast-store.ts");
const { FakeWebSocket } = await import("./support/fake-websocket.ts");
const { jsonResponse, mockFetch, restoreFetch } = await import("./support/fetch-mock.ts");
const { makeUser } = await import("./support/users.ts");
const { renderApp } = await import("./support/render-app.tsx");
const { useLiveDataStore, useLiveDataSync } = await import("../../web/lib/live-data-store.ts");

const FORM_OPTIONS = [
  ...["Member", "Spouse", "Dependent", "Guest", "Senior Care"].map((value) => ({ category: "playerType", value })),
  ...["Rental Cart - Solo", "Own Cart"].map((value) => ({ category: "cartPreference", value })),
  ...["Charge my guest", "Charge to my account"].map((value) => ({ category: "feePreferenceGuest", value })),
  ...["Charge to their account", "Charge to my account"].map((value) => ({ category: "feePreferenceMember", value })),
];

const santos: SavedPlayer = {
  firstName: "  PAOLO ",
  lastName: "dela cruz, ",
  type: "Member",
  memberId: "SW-1001-S",
  cartPreference: "Own Cart",
  feePreference: "Charge to their account",
};
const lapid: SavedPlayer = { firstName: "lito.", lastName: "LAPID", type: "Guest", memberId: "0000", cartPreference: "Rental Cart - Solo", feePreference: "Charge my guest" };

let stored: SavedPlayer[];
let calls: RecordedCall[];
let socket: FakeSocket;

/** Queries on the whole page, bound when called (the module-level `screen` can be bound before the DOM exists). */
const page = () => within(document.body);

/** The tests' clock: the tee sheet was just read, so the layout asks for no scrape. */
const NOW = Date.UTC(2026, 10, 22, 1);

/** What the signed-in layout's live data loads beside the saved players: nothing to show. */
const OTHER_LIVE_DATA: Record<string, unknown> = {
  "/v1/tee-times": { teeTimes: [], lastScrapeTime: NOW },
  "/v1/system/dates": [],
  "/v1/system/rules": {
    bookingRules: { rules: [], holidays: [] },
    courseSchedule: [],
    appSettings: DEFAULT_SETTINGS,
    allowedWindows: { DEFAULT: [], SATURDAY_MASTERS: [], SUNDAY_LEGENDS: [] },
  },
  "/v1/advisories": { internal: [], scraped: [] },
  "/v1/my/bookings": [],
  "/v1/my/requests": [],
};

function serve() {
  calls = mockFetch((call) => {
    const path = call.url.split("?")[0];
    if (path === "/v1/my/players") return jsonResponse(stored);
    if (path === "/v1/form-options") return jsonResponse(FORM_OPTIONS);
    if (call.method === "GET" && Object.hasOwn(OTHER_LIVE_DATA, path)) return jsonResponse(OTHER_LIVE_DATA[path]);
    return undefined;
  });
}

/** The signed-in layout's part the page relies on: the live data, loaded and kept in line with the server's changes. */
function LiveDataSync() {
  useLiveDataSync(appSocket, () => NOW);
  return null;
}

function sentPlayers(): { action: string; payload: SavedPlayer[]; requestId: string }[] {
  return socket.sent.map((raw) => JSON.parse(raw));
}

/** The server's answer to the last UPDATE_PLAYERS: an ack (the list stored) or an error. */
async function answerLast(answer: { type: "ack" } | { type: "error"; message: string; errorKey?: string }) {
  const last = sentPlayers().at(-1);
  if (!last) throw new Error("nothing was sent");
  if (answer.type === "ack") stored = last.payload;
  await act(async () => socket.receive(answer.type === "ack" ? { type: "ack", action: "UPDATE_PLAYERS", requestId: last.requestId } : { ...answer, requestId: last.requestId }));
}

/** Resolves once the live data has had its first full load. */
function liveDataLoaded(): Promise<void> {
  return new Promise((resolve) => {
    if (useLiveDataStore.getState().hasLoaded) return resolve();
    const stop = useLiveDataStore.subscribe((state) => {
      if (!state.hasLoaded) return;
      stop();
      resolve();
    });
  });
}

async function renderPlayers() {
  render(
    <>
      <LiveDataSync />
      <PlayersView />
      <ToastViewport />
    </>,
  );
  // The first load lands inside act, so the screen's update from it is applied before the checks.
  await act(() => liveDataLoaded());
  await page().findByRole("heading", { level: 1, name: "Saved Players" });
  await waitFor(() => expect(page().queryByRole("status", { name: "Loading saved players…" })).toBeNull());
}

beforeEach(() => {
  // Start from an empty page whatever the test files before this one left mounted.
  cleanup();
  document.body.innerHTML = "";
  stored = [santos, lapid];
  useLiveDataStore.getState().clearLiveData();
  useTextStore.setState({ overrides: {} });
  useSessionStore.setState({ status: "authenticated", user: makeUser({ memberId: "SW-1003" }), hasJustFinishedSetup: false });
  serve();
  FakeWebSocket.reset();
  appSocket.connect();
  socket = FakeWebSocket.latest()!;
  socket.open();
});

afterEach(() => {
  // The DOM helper registers its cleanup for the first test file of a run only.
  cleanup();
  appSocket.close();
  restoreFetch();
  useToastStore.getState().clearToasts();
});

const rowsOf = () =>
  page()
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );

describe("saved players table", () => {
  test("shows the columns and names trimmed, lower-cased, without a trailing period or comma, capitalised per word", async () => {
    await renderPlayers();
    expect(
      page()
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["First Name", "Last Name", "Type", "Membership #", "Cart", "Fee"]);
    expect(rowsOf()).toEqual([
      ["Paolo", "Dela Cruz", "Member", "SW-1001-S", "Own Cart", "Charge to their account"],
      ["Lito", "Lapid", "Guest", "0000", "Rental Cart - Solo", "Charge my guest"],
    ]);
  });

  test("an empty list says so", async () => {
    stored = [];
    await renderPlayers();
    expect(page().getByText("You have no saved players yet. Add the people you play with most.")).toBeTruthy();
  });

  test("reloads when the server says data changed", async () => {
    await renderPlayers();
    stored = [lapid];
    act(() => socket.receive({ type: "status", status: "updated" }));
    await waitFor(() => expect(rowsOf()).toHaveLength(1));
  });
});

describe("Edit List mode", () => {
  test("edits inline, removes a row and saves the whole list", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    fireEvent.change(page().getByLabelText("Last name (Player 2)"), { target: { value: "Lapid Jr" } });
    fireEvent.click(page().getByRole("button", { name: "Remove Paolo Dela Cruz" }));
    fireEvent.click(page().getByRole("button", { name: "Save Changes" }));

    await waitFor(() => expect(sentPlayers()).toHaveLength(1));
    expect(sentPlayers()[0].action).toBe("UPDATE_PLAYERS");
    expect(sentPlayers()[0].payload).toEqual([
      { firstName: "lito.", lastName: "Lapid Jr", type: "Guest", memberId: "0000", cartPreference: "Rental Cart - Solo", feePreference: "Charge my guest" },
    ]);
    await answerLast({ type: "ack" });
    await waitFor(() => expect(page().queryByRole("button", { name: "Save Changes" })).toBeNull());
    expect(rowsOf()).toEqual([["Lito", "Lapid Jr", "Guest", "0000", "Rental Cart - Solo", "Charge my guest"]]);
    expect(await page().findByText("Saved players updated.")).toBeTruthy();
  });

  test("a save shows the stored list at once and asks for it once, when the server names the change", async () => {
    await renderPlayers();
    const listReads = () => calls.filter((c) => c.method === "GET" && c.url.startsWith("/v1/my/players")).length;
    const readsBefore = listReads();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    fireEvent.click(page().getByRole("button", { name: "Remove Paolo Dela Cruz" }));
    fireEvent.click(page().getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(sentPlayers()).toHaveLength(1));
    await answerLast({ type: "ack" });
    await waitFor(() => expect(page().queryByRole("button", { name: "Save Changes" })).toBeNull());
    expect(rowsOf()).toEqual([["Lito", "Lapid", "Guest", "0000", "Rental Cart - Solo", "Charge my guest"]]);
    expect(listReads()).toBe(readsBefore);
    // The server tells every open tab of the member, this one included: one read follows.
    act(() => socket.receive({ type: "status", status: "updated", changed: ["my.players"] }));
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));
    await Bun.sleep(20);
    expect(listReads()).toBe(readsBefore + 1);
    expect(rowsOf()).toHaveLength(1);
  });

  test("the inputs of each row sit under their column headings", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    const cells = within(page().getAllByRole("row")[1]).getAllByRole("cell");
    const names = cells.map((cell) => cell.querySelector("input, select, button")?.getAttribute("aria-label"));
    expect(names).toEqual([
      "First name (Player 1)",
      "Last name (Player 1)",
      "Player type (Player 1)",
      "Membership # (Player 1)",
      "Cart (Player 1)",
      "Fee (Player 1)",
      "Remove Paolo Dela Cruz",
    ]);
  });

  test("Cancel drops the edits without sending anything", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    fireEvent.click(page().getByRole("button", { name: "Remove Lito Lapid" }));
    fireEvent.click(page().getByRole("button", { name: "Cancel" }));
    expect(rowsOf()).toHaveLength(2);
    expect(socket.sent).toHaveLength(0);
  });

  test("a missing member id is refused before sending, where the member is looking", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    fireEvent.change(page().getByLabelText("Membership # (Player 1)"), { target: { value: "" } });
    fireEvent.click(page().getByRole("button", { name: "Save Changes" }));
    expect((await page().findByRole("alert")).textContent).toBe("Membership number is required.");
    expect(socket.sent).toHaveLength(0);
  });

  test("member ids are upper-cased on entry, and a Guest gets 0000", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    const memberId = page().getByLabelText("Membership # (Player 1)") as HTMLInputElement;
    fireEvent.change(memberId, { target: { value: "sw-77" } });
    expect(memberId.value).toBe("SW-77");
    fireEvent.change(page().getByLabelText("Player type (Player 1)"), { target: { value: "Senior Care" } });
    expect(memberId.value).toBe("0000");
    expect(memberId.disabled).toBe(true);
    // A guest's fee comes from the guest choices.
    expect((page().getByLabelText("Fee (Player 1)") as HTMLSelectElement).value).toBe("Charge my guest");
  });

  test("a duplicate made by editing is refused", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Edit List" }));
    fireEvent.change(page().getByLabelText("Player type (Player 1)"), { target: { value: "Guest" } });
    fireEvent.change(page().getByLabelText("First name (Player 1)"), { target: { value: "LITO." } });
    fireEvent.change(page().getByLabelText("Last name (Player 1)"), { target: { value: "lapid" } });
    fireEvent.click(page().getByRole("button", { name: "Save Changes" }));
    expect((await page().findByRole("alert")).textContent).toBe("This exact player already exists in your list.");
  });
});

describe("Add Player modal", () => {
  async function openAdd() {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Add Player" }));
    return page().getByRole("dialog", { name: "Add Player" });
  }

  test("a Guest or Senior Care player gets the member id 0000; the list is saved with the new player", async () => {
    const dialog = await openAdd();
    const d = within(dialog);
    fireEvent.change(d.getByLabelText("Player type"), { target: { value: "Guest" } });
    const memberId = d.getByLabelText("Membership #") as HTMLInputElement;
    expect(memberId.value).toBe("0000");
    expect(memberId.disabled).toBe(true);
    fireEvent.change(d.getByLabelText("First name"), { target: { value: "Bea" } });
    fireEvent.change(d.getByLabelText("Last name"), { target: { value: "Reyes" } });
    fireEvent.click(d.getByRole("button", { name: "Add Player" }));

    await waitFor(() => expect(sentPlayers()).toHaveLength(1));
    expect(sentPlayers()[0].payload).toEqual([
      { firstName: "PAOLO", lastName: "dela cruz,", type: "Member", memberId: "SW-1001-S", cartPreference: "Own Cart", feePreference: "Charge to their account" },
      { ...lapid },
      // The member's defaults: makeUser has 'Rental Cart - Solo' and 'Charge my guest'.
      { firstName: "Bea", lastName: "Reyes", type: "Guest", memberId: "0000", cartPreference: "Rental Cart - Solo", feePreference: "Charge my guest" },
    ]);
    await answerLast({ type: "ack" });
    await waitFor(() => expect(page().queryByRole("dialog")).toBeNull());
    expect(rowsOf()).toHaveLength(3);
  });

  test("an exact duplicate is refused inside the modal", async () => {
    const dialog = await openAdd();
    const d = within(dialog);
    fireEvent.change(d.getByLabelText("First name"), { target: { value: "paolo" } });
    fireEvent.change(d.getByLabelText("Last name"), { target: { value: "Dela Cruz," } });
    fireEvent.change(d.getByLabelText("Membership #"), { target: { value: "sw-1001-s" } });
    fireEvent.click(d.getByRole("button", { name: "Add Player" }));
    expect((await d.findByRole("alert")).textContent).toBe("This exact player already exists in your list.");
    expect(socket.sent).toHaveLength(0);
  });

  test("a member needs a member id", async () => {
    const dialog = await openAdd();
    const d = within(dialog);
    fireEvent.change(d.getByLabelText("First name"), { target: { value: "Jose" } });
    fireEvent.change(d.getByLabelText("Last name"), { target: { value: "Reyes" } });
    fireEvent.click(d.getByRole("button", { name: "Add Player" }));
    expect((await d.findByRole("alert")).textContent).toBe("Membership number is required.");
  });

  test("the server's refusal shows in the modal, which stays open", async () => {
    const dialog = await openAdd();
    const d = within(dialog);
    fireEvent.change(d.getByLabelText("Last name"), { target: { value: "Reyes" } });
    fireEvent.change(d.getByLabelText("Membership #"), { target: { value: "SW-1002" } });
    fireEvent.click(d.getByRole("button", { name: "Add Player" }));
    await waitFor(() => expect(sentPlayers()).toHaveLength(1));
    await answerLast({ type: "error", message: "Unknown cart preference: Own Cart.", errorKey: "players.invalid_cart" });
    await waitFor(() => expect(d.getByRole("alert").textContent).toBe("Unknown cart preference: Own Cart."));
    expect(page().getByRole("dialog")).toBeTruthy();
  });

  test("closes on Escape", async () => {
    await openAdd();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(page().queryByRole("dialog")).toBeNull();
  });

  test("each opening of the Add Player modal starts from a blank player", async () => {
    await renderPlayers();
    fireEvent.click(page().getByRole("button", { name: "Add Player" }));
    let d = within(page().getByRole("dialog"));
    fireEvent.change(d.getByLabelText("Player type"), { target: { value: "Guest" } });
    fireEvent.change(d.getByLabelText("First name"), { target: { value: "Bea" } });
    fireEvent.change(d.getByLabelText("Last name"), { target: { value: "Reyes" } });
    fireEvent.click(d.getByRole("button", { name: "Add Player" }));
    await waitFor(() => expect(sentPlayers()).toHaveLength(1));
    await answerLast({ type: "ack" });
    await waitFor(() => expect(page().queryByRole("dialog")).toBeNull());
    fireEvent.click(page().getByRole("button", { name: "Add Player" }));
    d = within(page().getByRole("dialog"));
    expect((d.getByLabelText("Player type") as HTMLSelectElement).value).toBe("Member");
  });
});

test("beside the live data the layout loads, the page asks only for the options (and the client log)", async () => {
  await renderPlayers();
  const own = calls.map((c) => c.url.split("?")[0]).filter((path) => path !== "/v1/my/players" && !Object.hasOwn(OTHER_LIVE_DATA, path));
  expect(own.every((path) => path === "/v1/form-options" || path === "/v1/client/log")).toBe(true);
  expect(own).toContain("/v1/form-options");
});

test("opening the Players page in the signed-in app asks for the saved players once", async () => {
  renderApp("/players", { user: makeUser({ memberId: "SW-1003" }) });
  await page().findByRole("cell", { name: "Dela Cruz" }, { timeout: 5000 });
  await waitFor(() => expect(useLiveDataStore.getState().hasLoaded).toBe(true));
  expect(calls.filter((c) => c.method === "GET" && c.url.startsWith("/v1/my/players")).map((c) => c.url.split("?")[0])).toEqual(["/v1/my/players"]);
});
