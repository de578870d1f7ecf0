import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, render, waitFor, within } from "@testing-library/react";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import { AdminArea } from "../../web/features/admin/admin-area.tsx";
import { SystemMonitor, type MonitorTimer } from "../../web/features/admin/system-monitor.tsx";
import { AppSettingsTab } from "../../web/features/admin/settings-tabs.tsx";
import { GuestRulesTab } from "../../web/features/admin/guest-rules-tab.tsx";
import { UsersTab } from "../../web/features/admin/users-tab.tsx";
import { BookingWindowsTab, CoursesTab } from "../../web/features/admin/config-tabs.tsx";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { useToastStore } from "../../web/lib/toast-store.ts";
import { jsonResponse, mockFetch, restoreFetch, type FetchHandler, type RecordedCall } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

const STATS = {
  cpu: { currentLoad: 12.5, cores: 2 },
  memory: { used: 1024 * 1024 * 1024, total: 4 * 1024 * 1024 * 1024, percent: 25 },
  disk: { used: 10 * 1024 ** 3, total: 40 * 1024 ** 3, percent: 25 },
  database: { bytes: 42 * 1024 * 1024, walBytes: 3 * 1024 * 1024 },
  processes: [
    { pm_id: 4242, name: "teebox", status: "online", cpu: 1.5, memory: 80 * 1024 * 1024, lastError: null },
    // 2026-11-22 09:00:00 and 09:05:00 Manila.
    {
      pm_id: null,
      name: "scraper",
      status: "errored",
      cpu: null,
      memory: null,
      lastError: "club unreachable",
      lastPassAt: Date.UTC(2026, 10, 22, 1, 0, 0),
      nextPassAt: Date.UTC(2026, 10, 22, 1, 5, 0),
      passesPerMinute: 7,
    },
  ],
};
const CLUB = { mode: "demo", url: "http://127.0.0.1:5555", reachable: true, lastError: null };
const CONFIG = {
  courses: [{ id: "masters", name: "Masters", days_active: [1, 2, 3], aliases: ["THE MASTERS"] }],
  bookingWindows: [{ id: 1, rule_key: "DEFAULT", start_time: "05:04", end_time: "16:48" }],
  frontpageMessages: [],
  holidays: [
    { date: "2026-12-25", name: "Christmas" },
    { date: "2026-12-30", name: null },
  ],
  bookingRules: [{ id: 3, priority: 5, days_of_week: [6, 7], applies_on_holidays: true, start_time: "05:00", end_time: "12:00", min_players: 2, max_players: null, max_guests: 1 }],
};

/** Queries over the whole page, bound when called (the page exists by then). */
const screen = {
  get: () => within(document.body),
};
let calls: RecordedCall[];
function serve(extra: FetchHandler = () => undefined) {
  calls = mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url.startsWith("/v1/admin/system-stats/history")) return jsonResponse({ points: [] });
    if (call.url.startsWith("/v1/admin/system-stats")) return jsonResponse(STATS);
    if (call.url.startsWith("/v1/system/club")) return jsonResponse(CLUB);
    if (call.url.startsWith("/v1/admin/full-config")) return jsonResponse(CONFIG);
    if (call.url.startsWith("/v1/admin/app-settings") && call.method === "GET") return jsonResponse({ settings: DEFAULT_SETTINGS, uiText: {} });
    if (call.url.startsWith("/v1/admin/users") && call.method === "GET") return jsonResponse([]);
    if (call.url.startsWith("/v1/admin/")) return jsonResponse(call.body ?? {}, call.method === "POST" ? 201 : 200);
    return undefined;
  });
}

beforeEach(() => {
  useSessionStore.setState({ status: "authenticated", user: makeUser({ role: "superadmin", id: 1, username: "admin" }) });
  useToastStore.getState().clearToasts();
});
afterEach(() => restoreFetch());

/**
 * React 19 renders a discrete event's update in a microtask, so a handler fired right after
 * another (type, then click Save) would still see the previous render; let it render first.
 */
const settle = () => act(async () => undefined);

/**
 * Types into a field: the native value setter (below React's value tracker), then a bubbling
 * input event. When react-dom was evaluated before happy-dom registered its globals (module
 * linking order varies between runs), react-dom believes the page has no input event and ignores
 * it; the field's own onChange is then called with the typed element, as the event would have.
 */
async function typeInto(element: HTMLElement, value: string): Promise<void> {
  await settle();
  let proto: object | null = Object.getPrototypeOf(element);
  while (proto && !Object.getOwnPropertyDescriptor(proto, "value")?.set) proto = Object.getPrototypeOf(proto);
  const setter = proto ? Object.getOwnPropertyDescriptor(proto, "value")!.set! : null;
  act(() => {
    setter?.call(element, value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
  const propsKey = Object.keys(element).find((key) => key.startsWith("__reactProps$"));
  const props = propsKey ? (element as unknown as Record<string, { value?: unknown; onChange?: (event: unknown) => void }>)[propsKey] : undefined;
  if (props && props.value !== value && props.onChange) {
    act(() => props.onChange?.({ target: element, currentTarget: element }));
    await settle();
  }
}

const adminWrites = () => calls.filter((c) => c.method !== "GET" && c.url.startsWith("/v1/admin/"));

describe("admin area", () => {
  test("side tabs in the product's order, then the API reference; System Monitor first", async () => {
    serve();
    render(<AdminArea />);
    const tabs = screen
      .get()
      .getAllByRole("tab")
      .map((tab) => tab.textContent);
    expect(tabs).toEqual(["System Monitor", "Users", "App Settings", "Courses", "Booking Windows", "Guest Rules", "Frontpage Content", "UI Text", "API"]);
    expect(screen.get().getByRole("tab", { name: "System Monitor" }).getAttribute("aria-selected")).toBe("true");
    expect(await screen.get().findByText("2 cores", { exact: false })).toBeTruthy();
  });
});

describe("system monitor", () => {
  test("shows figures with sizes and colours, the club, and refreshes every 5 s", async () => {
    serve();
    let tick: () => void = () => undefined;
    const timer: MonitorTimer = {
      every(callback, ms) {
        expect(ms).toBe(5000);
        tick = callback;
        return () => undefined;
      },
    };
    render(<SystemMonitor timer={timer} />);
    expect(await screen.get().findByText("12.5% of 2 cores")).toBeTruthy();
    expect(screen.get().getByText("1.0 GB of 4.0 GB (25.0%)")).toBeTruthy();
    expect(screen.get().getByText("10.0 GB of 40.0 GB (25.0%)")).toBeTruthy();
    expect(screen.get().getByText("80.0 MB")).toBeTruthy();
    expect(screen.get().getByTestId("monitor-database").textContent).toContain("42.0 MB (write-ahead log 3.0 MB)");
    expect(screen.get().getByText("online").className).toContain("admin-status--ok");
    expect(screen.get().getByText("errored").className).toContain("admin-status--bad");
    expect(screen.get().getByText("club unreachable")).toBeTruthy();
    // Each job's schedule: its last and next pass (Manila time) and its passes in the last minute.
    const scraperRow = screen.get().getByText("scraper").closest("tr")!;
    expect(within(scraperRow).getByText("09:00:00")).toBeTruthy();
    expect(within(scraperRow).getByText("09:05:00")).toBeTruthy();
    expect(within(scraperRow).getByText("7")).toBeTruthy();
    expect(screen.get().getByText("Demo club (built in)")).toBeTruthy();
    expect(screen.get().getByText("Reachable")).toBeTruthy();
    const before = calls.filter((c) => c.url.includes("system-stats")).length;
    await act(async () => tick());
    await waitFor(() => expect(calls.filter((c) => c.url.includes("system-stats")).length).toBe(before + 1));
  });

  test("the last day as small charts: CPU, memory, lag, requests to the club and the database, each with its newest and highest value", async () => {
    const at = (minute: number) => Date.UTC(2026, 10, 22, 1, minute, 0);
    const points = [0, 5, 10].map((m, i) => ({
      at: at(m),
      cpuPercent: [1.5, 12.5, 2][i],
      rssBytes: [80, 96, 90][i] * 1024 * 1024,
      lagP99Ms: [1, 30, 2][i],
      clubRequests: [3, 40, 5][i],
      databaseBytes: 40 * 1024 * 1024,
    }));
    serve((call) => (call.url.startsWith("/v1/admin/system-stats/history") ? jsonResponse({ points }) : undefined));
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    const cpu = await screen.get().findByTestId("chart-cpu");
    expect(cpu.textContent).toContain("2.0%");
    expect(cpu.textContent).toContain("highest 12.5%");
    expect(within(cpu).getByRole("img").getAttribute("aria-label")).toBe("CPU (one core) from 09:00:00 to 09:10:00: now 2.0%, highest 12.5%");
    expect(screen.get().getByTestId("chart-memory").textContent).toContain("highest 96.0 MB");
    expect(screen.get().getByTestId("chart-lag").textContent).toContain("highest 30.0 ms");
    expect(screen.get().getByTestId("chart-club").textContent).toContain("highest 40");
    expect(screen.get().getByTestId("chart-database").textContent).toContain("40.0 MB");
  });

  test("a long failure shows its summary line, the whole text on demand", async () => {
    const long =
      "13 of 14 pages could not be read: 13 × the club ended the session and a new sign-in did not hold (tee sheet masters 2026-11-24, tee sheet masters 2026-11-25, tee sheet masters 2026-11-26 and 10 more; first: Your session has ended.)";
    serve((call) => (call.url.includes("system-stats") ? jsonResponse({ ...STATS, processes: [{ ...STATS.processes[1], lastError: long }] }) : undefined));
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    const summary = await screen.get().findByText("13 of 14 pages could not be read", { exact: false, selector: "summary" });
    expect(summary.textContent).toBe("13 of 14 pages could not be read Details");
    const details = summary.closest("details") as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector(".admin-failure__full")?.textContent).toBe(long);
  });

  test("'No data available.' before any figures", async () => {
    serve((call) => (call.url.includes("system-stats") ? (new Promise<Response>(() => undefined) as unknown as Response) : undefined));
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    expect(screen.get().getByText("No data available.")).toBeTruthy();
  });
});

describe("app settings", () => {
  async function renderSettings() {
    render(
      <>
        <AppSettingsTab />
        <ToastViewport />
      </>,
    );
    await settle();
    return (await screen.get().findByRole("heading", { name: "App Settings" })).closest("section") as HTMLElement;
  }
  const puts = () => calls.filter((c) => c.method === "PUT");

  test("an emptied number is refused with a message and nothing is sent (never saved as 0)", async () => {
    serve();
    const section = await renderSettings();
    await typeInto(await within(section).findByLabelText("Release days before"), "");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(await screen.get().findByText("release_days_before needs a number.")).toBeTruthy();
    expect(puts()).toHaveLength(0);
  });

  test("a bad release time shows the product's message and sends nothing", async () => {
    serve();
    const section = await renderSettings();
    const release = await within(section).findByLabelText("Release time (HH:MM)");
    await typeInto(release, "7:00");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(await screen.get().findByText("release_time must be in HH:MM format")).toBeTruthy();
    await typeInto(release, "24:00");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(await screen.get().findByText("release_time must be a valid time between 00:00 and 23:59")).toBeTruthy();
    expect(puts()).toHaveLength(0);
  });

  test("a JSON setting that does not parse abandons the save silently", async () => {
    serve();
    const section = await renderSettings();
    await typeInto(await within(section).findByLabelText("Courses to skip when full (JSON array)"), "[masters");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    await act(async () => undefined);
    expect(puts()).toHaveLength(0);
    expect(screen.get().queryByRole("alert")).toBeNull();
  });

  test("saves numbers as numbers and says 'Settings saved'", async () => {
    serve((call) => (call.method === "PUT" ? jsonResponse({ settings: call.body, movedRequests: 0 }) : undefined));
    const section = await renderSettings();
    await typeInto(await within(section).findByLabelText("Release days before"), "5");
    await settle();
    fireEvent.change(within(section).getByLabelText("Log level"), { target: { value: "warn" } });
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(await screen.get().findByText("Settings saved")).toBeTruthy();
    expect(puts()[0].url).toBe("/v1/admin/app-settings");
    expect(puts()[0].body).toEqual({ ...DEFAULT_SETTINGS, release_days_before: 5, log_level: "warn" });
  });

  test("how long the engine keeps trying a club in trouble is edited here; left empty it is not sent", async () => {
    serve((call) => {
      if (call.method === "GET" && call.url.startsWith("/v1/admin/app-settings")) return jsonResponse({ settings: { ...DEFAULT_SETTINGS, club_retry_minutes: 10 }, uiText: {} });
      return call.method === "PUT" ? jsonResponse({ settings: call.body, movedRequests: 0 }) : undefined;
    });
    const section = await renderSettings();
    const field = (await within(section).findByLabelText("Keep trying a club in trouble at a release for (minutes)")) as HTMLInputElement;
    expect(field.value).toBe("10");
    await typeInto(field, "15");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(await screen.get().findByText("Settings saved")).toBeTruthy();
    expect(puts()[0].body).toEqual({ ...DEFAULT_SETTINGS, club_retry_minutes: 15 });
    await typeInto(field, "");
    await settle();
    fireEvent.click(within(section).getByRole("button", { name: "Save Settings" }));
    await settle();
    expect(puts()[1].body).toEqual({ ...DEFAULT_SETTINGS });
  });
});

describe("guest rules", () => {
  async function renderRules() {
    serve();
    render(<GuestRulesTab />);
    await screen.get().findByText("Christmas");
  }

  test("shows rules the product's way", async () => {
    await renderRules();
    const row = within(screen.get().getByTestId("admin-rules")).getAllByRole("row")[1];
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["5", "Sat Sun Hol", "05:00 - 12:00", "1", "2", "-", "EditDelete"]);
  });

  test("while a holiday is edited the other buttons are disabled; name-only edit", async () => {
    await renderRules();
    const list = screen.get().getByTestId("admin-holidays");
    fireEvent.click(within(list).getAllByRole("button", { name: "Edit" })[0]);
    await settle();
    expect(
      within(list)
        .getAllByRole("button", { name: "Edit" })
        .every((b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    expect(
      within(list)
        .getAllByRole("button", { name: "Delete" })
        .every((b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    calls.length = 0;
    await typeInto(within(list).getByLabelText("Name (optional)", { selector: "li input" }), "Xmas");
    await settle();
    fireEvent.click(within(list).getByRole("button", { name: "Save" }));
    await settle();
    await waitFor(() => expect(adminWrites()).toHaveLength(1));
    const put = adminWrites()[0];
    expect(put.url).toBe("/v1/admin/holidays/2026-12-25");
    expect(put.body).toEqual({ name: "Xmas" });
  });

  test("adding a holiday needs a date", async () => {
    await renderRules();
    fireEvent.click(screen.get().getByRole("button", { name: "Add Holiday" }));
    await settle();
    expect(await screen.get().findByText("Date is required.")).toBeTruthy();
    expect(adminWrites()).toHaveLength(0);
  });

  test("delete asks first with the product's text", async () => {
    await renderRules();
    fireEvent.click(within(screen.get().getByTestId("admin-holidays")).getAllByRole("button", { name: "Delete" })[0]);
    await settle();
    expect(screen.get().getByText("Are you sure you want to delete this holiday? This action cannot be undone.")).toBeTruthy();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.get().queryByRole("dialog")).toBeNull();
    fireEvent.click(within(screen.get().getByTestId("admin-rules")).getByRole("button", { name: "Delete" }));
    await settle();
    expect(screen.get().getByText("Are you sure you want to delete this rule? This action cannot be undone.")).toBeTruthy();
  });

  test("the Add Rule dialog starts from the defaults, sends integers and nulls, closes on Escape", async () => {
    await renderRules();
    fireEvent.click(screen.get().getByRole("button", { name: "Add Rule" }));
    await settle();
    const dialog = screen.get().getByRole("dialog");
    expect((within(dialog).getByLabelText("Priority") as HTMLInputElement).value).toBe("10");
    expect((within(dialog).getByLabelText("Start Time") as HTMLInputElement).value).toBe("05:00");
    expect((within(dialog).getByLabelText("End Time") as HTMLInputElement).value).toBe("17:00");
    fireEvent.click(within(dialog).getByRole("button", { name: "Sun" }));
    await settle();
    fireEvent.click(within(dialog).getByRole("button", { name: "Mon" }));
    await settle();
    await typeInto(within(dialog).getByLabelText("Max Players"), "");
    await settle();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await settle();
    await waitFor(() => expect(adminWrites()).toHaveLength(1));
    expect(adminWrites()[0].url).toBe("/v1/admin/booking-rules");
    expect(adminWrites()[0].body).toEqual({
      priority: 10,
      days_of_week: [1, 7],
      applies_on_holidays: false,
      start_time: "05:00",
      end_time: "17:00",
      min_players: 1,
      max_players: null,
      max_guests: 3,
    });
    fireEvent.click(screen.get().getByRole("button", { name: "Add Rule" }));
    await settle();
    expect(screen.get().getByRole("dialog")).toBeTruthy();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.get().queryByRole("dialog")).toBeNull();
  });
});

describe("users", () => {
  test("a member's requests held while disabled are counted on their row", async () => {
    const row = (id: number, username: string, status: "active" | "disabled", heldRequests: number) => ({
      id,
      username,
      name: username,
      memberId: `SW-${id}`,
      southwoods_email: `${username}@southwoods.demo`,
      role: "user",
      status,
      hasClubPassword: true,
      mustSetPassword: false,
      createdAt: 0,
      heldRequests,
    });
    serve((call) => (call.url.startsWith("/v1/admin/users") && call.method === "GET" ? jsonResponse([row(2, "ana", "disabled", 2), row(3, "jose", "active", 0)]) : undefined));
    render(<UsersTab />);
    expect(await screen.get().findByText("2 request(s) on hold until the member is enabled")).toBeTruthy();
    expect(screen.get().queryAllByText(/on hold until/)).toHaveLength(1);
  });
});

describe("rows that toggle between view and edit", () => {
  test("a new user row can be cancelled and removed; required fields checked", async () => {
    serve();
    render(<UsersTab />);
    fireEvent.click(await screen.get().findByRole("button", { name: "Add User" }));
    await settle();
    fireEvent.click(screen.get().getByRole("button", { name: "Save" }));
    await settle();
    expect(await screen.get().findByText("Username is required.")).toBeTruthy();
    fireEvent.click(screen.get().getByRole("button", { name: "Cancel" }));
    await settle();
    expect(screen.get().queryByLabelText("Username")).toBeNull();
  });

  test("booking windows: the screen says which courses and days each set reaches, so a set no course plays is seen", async () => {
    serve();
    render(<BookingWindowsTab />);
    const coverage = await screen.get().findByTestId("admin-windows-coverage");
    expect(coverage.textContent).toContain("DEFAULT: no course at the moment");
    expect(coverage.textContent).toContain("SATURDAY_MASTERS: Masters (Mon Tue Wed)");
  });

  test("courses: the club's other names are shown, edited as one field and saved as a list", async () => {
    serve();
    render(<CoursesTab />);
    expect(await screen.get().findByText("THE MASTERS")).toBeTruthy();
    fireEvent.click(screen.get().getByRole("button", { name: "Edit" }));
    await settle();
    await typeInto(screen.get().getByLabelText("Names at the club (comma-separated)"), "THE MASTERS, Masters Course ,, ");
    await settle();
    fireEvent.click(screen.get().getByRole("button", { name: "Save" }));
    await settle();
    const put = calls.find((call) => call.method === "PUT" && call.url.startsWith("/v1/admin/courses/masters"));
    expect((put?.body as { aliases?: string[] } | undefined)?.aliases).toEqual(["THE MASTERS", "Masters Course"]);
  });

  test("courses: the product's messages, and a failed save names the status", async () => {
    serve((call) => (call.method === "POST" ? jsonResponse({ message: "Course ID already exists.", errorKey: "admin.courses.error_exists" }, 400) : undefined));
    render(<CoursesTab />);
    fireEvent.click(await screen.get().findByRole("button", { name: "Add Course" }));
    await settle();
    fireEvent.click(screen.get().getByRole("button", { name: "Save" }));
    await settle();
    const required = await screen.get().findByText("ID and Name are required");
    // Announced, and tied to the row's fields.
    expect(required.getAttribute("role")).toBe("alert");
    expect(screen.get().getByLabelText("ID").getAttribute("aria-describedby")).toBe(required.id);
    expect(screen.get().getByLabelText("ID").getAttribute("aria-invalid")).toBe("true");
    await typeInto(screen.get().getByLabelText("ID"), "masters");
    await settle();
    await typeInto(screen.get().getByLabelText("Name"), "Again");
    await settle();
    fireEvent.click(screen.get().getByRole("button", { name: "Save" }));
    await settle();
    expect(await screen.get().findByText("Select at least one active day")).toBeTruthy();
    fireEvent.click(screen.get().getAllByRole("button", { name: "Tue" }).at(-1)!);
    await settle();
    fireEvent.click(screen.get().getByRole("button", { name: "Save" }));
    await settle();
    expect(await screen.get().findByText("Failed to save course (400): Course ID already exists.")).toBeTruthy();
  });
});

// These answer with server failures, which the api helper reports with console.error; they come
// last because, under happy-dom, React has been seen ignoring input events after such a report.
describe("failures", () => {
  test("a failure shows the server's message, else the fallback; no data says so", async () => {
    serve((call) => (call.url.includes("system-stats") ? jsonResponse({}, 500) : undefined));
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    expect(await screen.get().findByText("Failed to load system stats.")).toBeTruthy();
    expect(await screen.get().findByText("Reachable")).toBeTruthy();
  });

  test("app settings: a failed save shows the server's message", async () => {
    serve((call) => (call.method === "PUT" ? jsonResponse({ message: "scraper_username: Too long" }, 400) : undefined));
    render(<AppSettingsTab />);
    fireEvent.click(await screen.get().findByRole("button", { name: "Save Settings" }));
    expect(await screen.get().findAllByText("scraper_username: Too long")).not.toHaveLength(0);
  });

  test("an answer that is not what the server's schema says shows the failure, never a half-read list", async () => {
    serve((call) => (call.url.startsWith("/v1/admin/users") && call.method === "GET" ? jsonResponse([{ id: "1", username: 7, role: "owner" }]) : undefined));
    render(<UsersTab />);
    expect(await screen.get().findByText("Failed to fetch users")).toBeTruthy();
    expect(screen.get().queryByText("owner")).toBeNull();
    expect(screen.get().queryAllByRole("button", { name: "Edit" })).toHaveLength(0);
  });

  test("malformed system stats show the failure text, not a crash", async () => {
    serve((call) => (call.url.includes("system-stats") ? jsonResponse({ cpu: "busy" }) : undefined));
    render(<SystemMonitor timer={{ every: () => () => undefined }} />);
    expect(await screen.get().findByText("Failed to load system stats.")).toBeTruthy();
    expect(screen.get().queryByText("busy")).toBeNull();
  });
});
