/**
 * Shared setup of the Book and Bookings component tests: a member, the live data of a week at the
 * demo club, the screens in a memory router, and the fake socket opened.
 */
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import type { BookingRule, Course } from "../../src/domain/booking-rules.ts";
import type { ConfirmedBookingView } from "../../src/domain/bookings-view.ts";
import type { DateEntry, TeeTimeDay } from "../../src/domain/date-kinds.ts";
import { toDateEntry } from "../../src/domain/date-kinds.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import type { SavedPlayer } from "../../src/domain/players.ts";
import { DEFAULT_SETTINGS } from "../../src/domain/settings.ts";
import type { RequestRow } from "../../web/features/bookings/bookings-model.ts";
import { SubmissionResultDialog } from "../../web/components/submission-result-dialog.tsx";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { BookScreen } from "../../web/features/book/book-screen.tsx";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { forgetFormOptions } from "../../web/features/book/use-form-options.ts";
import { BookingsScreen } from "../../web/features/bookings/bookings-screen.tsx";
import { cancelScrapeRetry, useLiveDataStore } from "../../web/lib/live-data-store.ts";
import { useSessionStore } from "../../web/lib/session-store.ts";
import { appSocket } from "../../web/lib/socket.ts";
import { useToastStore } from "../../web/lib/toast-store.ts";
import type { SessionUser } from "../../web/lib/types.ts";
import { FakeWebSocket } from "./support/fake-websocket.ts";
import { jsonResponse, mockFetch, restoreFetch, type FetchHandler, type RecordedCall } from "./support/fetch-mock.ts";
import { makeUser } from "./support/users.ts";

/** Sunday 22 Nov 2026, 09:00 in Manila. */
export const NOW = manilaInstant("2026-11-22", "09:00");
export const MONDAY = "2026-11-23";
export const TUESDAY = "2026-11-24";
export const SATURDAY = "2026-11-28";
export const SUNDAY = "2026-11-29";

export const member: SessionUser = makeUser({ name: "Juan Dela Cruz", memberId: "SW-2000" });

export const courses: Course[] = [
  { id: "masters", name: "Masters", days_active: [1, 2, 3, 4, 5, 6] },
  { id: "legends", name: "Legends", days_active: [2, 3, 4, 5, 6, 7] },
];

/** Monday mornings: at least 2 players, at most 3, one guest. */
export const mondayMorningRule: BookingRule = {
  id: 1,
  priority: 1,
  days_of_week: [1],
  applies_on_holidays: false,
  start_time: "05:00",
  end_time: "11:59",
  min_players: 2,
  max_players: 3,
  max_guests: 1,
};

export const dates: DateEntry[] = [MONDAY, TUESDAY, SATURDAY, SUNDAY].map(toDateEntry);

export const teeTimes: TeeTimeDay[] = [
  {
    date: MONDAY,
    course: "masters",
    tee_times: [
      { time: "06:00", status: "AVAILABLE", slotId: "m-0600" },
      { time: "06:08", status: "BOOKED", slotId: "m-0608" },
      { time: "06:16", status: "AVAILABLE", slotId: "m-0616" },
      { time: "06:24", status: "AVAILABLE", slotId: "m-0624" },
      { time: "12:00", status: "AVAILABLE", slotId: "m-1200" },
      { time: "12:08", status: "AVAILABLE", slotId: "m-1208" },
    ],
  },
  { date: TUESDAY, course: "masters", tee_times: [{ time: "07:00", status: "AVAILABLE", slotId: "t-0700" }] },
];

export const savedPlayers: SavedPlayer[] = [
  { firstName: "Maria", lastName: "Santos", type: "Member", memberId: "SW-1001", cartPreference: "Own Cart", feePreference: "Charge to their account" },
  { firstName: "Pedro", lastName: "Guest", type: "Guest", memberId: "0000", cartPreference: "Walking", feePreference: "Charge my guest" },
  { firstName: "Lola", lastName: "Care", type: "Senior Care", memberId: "0000", cartPreference: "Walking", feePreference: "Charge my guest" },
  { firstName: "Juan", lastName: "Dela Cruz", type: "Member", memberId: "SW-2000", cartPreference: "Own Cart", feePreference: "Charge to their account" },
];

/** The member already holds Monday 06:16 on Masters. */
export const heldBooking: ConfirmedBookingView = {
  bookingId: "SW-B-1",
  course: "masters",
  date: "Monday Nov 23, 2026",
  time: "06:16",
  createdAt: NOW - 86_400_000,
  playersInfo: [
    { name: "Juan Dela Cruz", type: "Member", id: "SW-2000" },
    { name: "Maria Santos", type: "Member", id: "SW-1001" },
  ],
};

export const pendingRequest: RequestRow = {
  id: 5,
  course: "masters",
  play_date: "2026-12-05",
  times: ["07:04", "07:12"],
  status: "Pending",
  release_at: manilaInstant("2026-11-28", "07:00"),
  players: [{ name: "Pedro Guest", type: "Guest", memberId: "" }],
  failureReason: null,
  submittedAt: NOW - 3_600_000,
  attempts: [],
};

export const failedRequest: RequestRow = {
  id: 6,
  course: "legends",
  play_date: "2026-11-24",
  times: ["08:00", "08:08"],
  status: "Failed",
  release_at: manilaInstant("2026-11-17", "07:00"),
  players: [],
  failureReason: "No selected time was available",
  submittedAt: NOW - 7_200_000,
  attempts: [
    {
      time: "08:00",
      firedAtClub: manilaInstant("2026-11-17", "07:00") + 3,
      offsetFromReleaseMs: 3,
      outcome: "slot_taken",
      answer: "This tee time has just been taken.",
      durationMs: 120,
    },
    { time: "08:08", firedAtClub: manilaInstant("2026-11-17", "07:00") + 130, offsetFromReleaseMs: 130, outcome: "slot_taken", answer: null, durationMs: 98 },
  ],
};

export const FORM_OPTIONS = [
  ...["Member", "Spouse", "Dependent", "Guest", "Senior Care"].map((value) => ({ category: "playerType", value })),
  ...["Rental Cart - Solo", "Rental Cart - Shared", "Own Cart", "Walking"].map((value) => ({ category: "cartPreference", value })),
  ...["Charge my guest", "Charge to my account"].map((value) => ({ category: "feePreferenceGuest", value })),
  ...["Charge to their account", "Charge to my account"].map((value) => ({ category: "feePreferenceMember", value })),
];

export function setLiveData(overrides: Partial<ReturnType<typeof useLiveDataStore.getState>> = {}): void {
  useLiveDataStore.setState({
    teeTimes,
    dates,
    lastScrapeTime: NOW - 60_000,
    rules: {
      bookingRules: { rules: [mondayMorningRule], holidays: [] },
      courseSchedule: courses,
      appSettings: DEFAULT_SETTINGS,
      allowedWindows: { DEFAULT: [{ start_time: "05:04", end_time: "16:48" }], SATURDAY_MASTERS: [{ start_time: "06:00", end_time: "07:52" }], SUNDAY_LEGENDS: [] },
    },
    advisories: null,
    bookings: [heldBooking],
    requests: [],
    savedPlayers,
    hasLoaded: true,
    isLoading: false,
    ...overrides,
  });
}

export function setViewportWidth(width: number): void {
  act(() => {
    (window as unknown as { happyDOM: { setInnerWidth(width: number): void } }).happyDOM.setInnerWidth(width);
    window.dispatchEvent(new Event("resize"));
  });
}

/** What the pages ask for beside what a test is about: no standing requests, no invitations, no flight elsewhere. */
function quietDefault(url: string): Response | undefined {
  if (url === "/v1/my/series") return jsonResponse([]);
  if (url.startsWith("/v1/my/invitations")) return jsonResponse({ from: "anyone", received: [], sent: [] });
  if (url.startsWith("/v1/my/partners/overlaps")) return jsonResponse({ overlaps: [] });
  return undefined;
}

/** Every call the screens make; form options answered, anything else by `extra`. */
export function serveApi(extra: FetchHandler = () => undefined): RecordedCall[] {
  return mockFetch((call) => {
    if (call.url.startsWith("/v1/form-options")) return jsonResponse(FORM_OPTIONS);
    // The Bookings page lists the member's standing requests: none, unless the test serves some.
    return extra(call) ?? (call.method === "GET" ? quietDefault(call.url) : undefined);
  });
}

export function openSocket(): FakeWebSocket {
  appSocket.connect();
  const socket = FakeWebSocket.latest();
  if (!socket) throw new Error("the app did not open a socket");
  act(() => socket.open());
  return socket;
}

export function sentActions(socket: FakeWebSocket): { action: string; payload: unknown; requestId?: string }[] {
  return socket.sent.map((raw) => JSON.parse(raw) as { action: string; payload: unknown; requestId?: string });
}

export function resetBookTest(): void {
  // test/helpers/dom.ts registers its cleanup only in the first test file of a run.
  cleanup();
  appSocket.close();
  cancelScrapeRetry();
  FakeWebSocket.reset();
  restoreFetch();
  forgetFormOptions();
  useBookStore.getState().reset();
  useToastStore.getState().clearToasts();
  useLiveDataStore.getState().clearLiveData();
  sessionStorage.clear();
  setViewportWidth(1280);
}

/** The Book and Bookings screens in a memory router, with the global result dialog and toasts. */
export function renderScreens(path: string, user: SessionUser = member, now: number = NOW) {
  useSessionStore.setState({ status: "authenticated", user, hasJustFinishedSetup: false });
  const router = createMemoryRouter(
    [
      { path: "/book", element: <BookScreen now={() => now} /> },
      { path: "/bookings", element: <BookingsScreen /> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <>
      <RouterProvider router={router} />
      <SubmissionResultDialog />
      <ToastViewport />
    </>,
  );
  return { router, ...view };
}

/** The dialog alone. (Test files stay free of JSX: its runtime import would run before the DOM is registered.) */
export function renderResultDialog() {
  return render(<SubmissionResultDialog />);
}
