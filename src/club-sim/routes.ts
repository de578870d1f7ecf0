/**
 * The member-facing pages of the demo club: login, tee sheet, booking, my bookings,
 * advisories. Plain HTML and urlencoded form posts, like the portal it stands in for.
 */
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { formatLongDate, isIsoDate, manilaDate } from "../domain/manila-time.ts";
import { CLUB_COURSES, MAX_PLAYERS, type ClubAccount } from "./demo-data.ts";
import type { Arrival } from "./arrival.ts";
import type { ClubFaults } from "./faults.ts";
import {
  renderAdvisoriesPage,
  renderBookingFormPage,
  renderBookingsPage,
  renderEditFormPage,
  renderHomePage,
  renderLoginPage,
  renderNotFoundPage,
  renderRefusalPage,
  renderResultPage,
  renderTeeSheetPage,
  type SheetState,
} from "./pages.ts";
import {
  LEGACY_PASSWORD_FIELD,
  LEGACY_TOKEN_FIELD,
  LEGACY_USER_FIELD,
  legacyAdvisoriesPage,
  legacyBookingsPage,
  legacyHomePage,
  legacyLoginPage,
  legacyRefusalPage,
  legacyRefusalWords,
  legacyResultPage,
  legacyTeeSheetPage,
} from "./legacy-pages.ts";
import type { BookingOutcome, ClubState, SimBooking, SimPlayer, SimSession } from "./state.ts";
import { findCourse, isCourseOpenOn, parseSlotId } from "./tee-sheet.ts";

export const SESSION_COOKIE = "SWSESSION";
const LOGIN_COOKIE = "sw_login";

export interface SimRuntime {
  state: ClubState;
  clubNow(): number;
  faults(): ClubFaults;
  /** When a request reached the club, before its turn to be handled; undefined in-process. */
  arrivalOf(request: Request): Arrival | undefined;
}

type MemberEnv = { Variables: { session: SimSession; account: ClubAccount } };
type Form = Record<string, string>;

async function readForm(c: Context): Promise<Form> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** Players p1…p4 of a booking form; rows left blank are skipped. */
export function readPlayers(form: Form): SimPlayer[] {
  const players: SimPlayer[] = [];
  for (let n = 1; n <= MAX_PLAYERS + 2; n++) {
    const type = (form[`p${n}_type`] ?? "").trim();
    const lastName = (form[`p${n}_last`] ?? "").trim();
    if (!type && !lastName) continue;
    players.push({
      type,
      firstName: (form[`p${n}_first`] ?? "").trim(),
      lastName,
      memberId: (form[`p${n}_id`] ?? "").trim().toUpperCase() || null,
      cart: (form[`p${n}_cart`] ?? "").trim(),
      fee: (form[`p${n}_fee`] ?? "").trim(),
    });
  }
  return players;
}

const courseName = (id: string) => findCourse(id)?.name ?? id;
/** The form token, under the name either portal gives it. */
const tokenOf = (form: Form) => form._csrf ?? form[LEGACY_TOKEN_FIELD];
const fullName = (a: ClubAccount) => `${a.firstName} ${a.lastName}`;

export function createMemberRoutes(rt: SimRuntime): Hono {
  const app = new Hono();
  const layout = () => rt.faults().layout;

  app.get("/", (c) => c.redirect("/login", 302));

  app.get("/login", (c) => {
    const { preId, token } = rt.state.issueLoginToken();
    setCookie(c, LOGIN_COOKIE, preId, { path: "/", httpOnly: true, sameSite: "Lax" });
    if (layout() === "legacy") return c.html(legacyLoginPage({ token, next: c.req.query("next") }));
    return c.html(renderLoginPage({ layout: layout(), token, next: c.req.query("next") }));
  });

  app.post("/login", async (c) => {
    const raw = await readForm(c);
    // Either portal's field names: the standard one's or the legacy one's.
    const form = { ...raw, _csrf: tokenOf(raw), email: raw.email ?? raw[LEGACY_USER_FIELD], password: raw.password ?? raw[LEGACY_PASSWORD_FIELD], next: raw.next ?? raw.ReturnUrl };
    const preId = getCookie(c, LOGIN_COOKIE);
    const retry = (error: string, status: 200 | 400 = 200) => {
      const { preId: newId, token } = rt.state.issueLoginToken();
      setCookie(c, LOGIN_COOKIE, newId, { path: "/", httpOnly: true, sameSite: "Lax" });
      if (layout() === "legacy") return c.html(legacyLoginPage({ token, error, next: form.next, email: form.email }), status);
      return c.html(renderLoginPage({ layout: layout(), token, error, next: form.next, email: form.email }), status);
    };
    if (!rt.state.isLoginTokenValid(preId, form._csrf)) return retry("Your login form has expired. Please try again.", 400);
    const account = rt.state.checkPassword(form.email ?? "", form.password ?? "");
    if (!account) return retry("Invalid email or password.");
    const session = rt.state.openSession(account.email, rt.clubNow(), preId);
    deleteCookie(c, LOGIN_COOKIE, { path: "/" });
    setCookie(c, SESSION_COOKIE, session.id, { path: "/", httpOnly: true, sameSite: "Lax" });
    const next = form.next?.startsWith("/members/") ? form.next : "/members/home";
    return c.redirect(next, 302);
  });

  app.get("/logout", (c) => {
    rt.state.closeSession(getCookie(c, SESSION_COOKIE));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/login", 302);
  });

  app.get("/advisories", (c) =>
    c.html(layout() === "legacy" ? legacyAdvisoriesPage(rt.state.listAdvisories()) : renderAdvisoriesPage({ layout: layout(), advisories: rt.state.listAdvisories() })),
  );

  app.route("/members", createProtectedRoutes(rt));
  return app;
}

function createProtectedRoutes(rt: SimRuntime): Hono<MemberEnv> {
  const app = new Hono<MemberEnv>();
  const layout = () => rt.faults().layout;

  app.use("*", async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const dropRate = rt.faults().dropSessions;
    if (dropRate > 0 && rt.state.random() < dropRate) rt.state.dropSession(cookie);
    const session = rt.state.touchSession(cookie, rt.clubNow());
    const account = session ? rt.state.findAccount(session.email) : undefined;
    if (session && account && (c.req.method === "GET" || tokenOf(await readForm(c)) === session.csrf)) {
      c.set("session", session);
      c.set("account", account);
      return next();
    }
    if (c.req.method === "POST" && c.req.path === "/members/book") recordBookingPost(rt, await readForm(c), "", "session_expired", null, rt.arrivalOf(c.req.raw));
    const target = c.req.method === "GET" ? c.req.path + (new URL(c.req.url).search ?? "") : "/members/home";
    return c.redirect(`/login?next=${encodeURIComponent(target)}`, 302);
  });

  const member = (c: Context<MemberEnv>) => ({ layout: layout(), csrf: c.get("session").csrf, memberName: fullName(c.get("account")) });

  const isLegacy = () => layout() === "legacy";
  const legacyMember = (c: Context<MemberEnv>) => ({ token: c.get("session").csrf, memberName: fullName(c.get("account")) });
  const refusal = (c: Context<MemberEnv>, outcome: string, message: string) =>
    isLegacy() ? legacyRefusalPage({ ...legacyMember(c), message: legacyRefusalWords(outcome, message) }) : renderRefusalPage({ ...member(c), message });
  const LEGACY_HEADINGS = { booked: "Reservation Confirmed", updated: "Reservation Changed", cancelled: "Reservation Cancelled" } as const;
  const result = (c: Context<MemberEnv>, kind: "booked" | "updated" | "cancelled", booking: SimBooking) =>
    isLegacy()
      ? legacyResultPage({ ...legacyMember(c), heading: LEGACY_HEADINGS[kind], booking, courseName: courseName(booking.courseId) })
      : renderResultPage({ ...member(c), kind, booking, courseName: courseName(booking.courseId) });

  app.get("/home", (c) =>
    c.html(
      isLegacy()
        ? legacyHomePage({ token: c.get("session").csrf, account: c.get("account") })
        : renderHomePage({ layout: layout(), csrf: c.get("session").csrf, account: c.get("account") }),
    ),
  );

  app.get("/tee-sheet", (c) => {
    const date = c.req.query("date") ?? manilaDate(rt.clubNow());
    const course = findCourse(c.req.query("course") ?? CLUB_COURSES[0].id);
    if (!course || !isIsoDate(date)) return c.html(renderNotFoundPage({ ...member(c), message: "Unknown course or date." }), 404);
    let sheet: SheetState;
    if (!isCourseOpenOn(course, date)) sheet = { kind: "closed" };
    else if (!rt.state.isReleased(date, rt.clubNow())) {
      const opens = rt.state.releaseInstantOf(date);
      sheet = { kind: "not_released", opensText: `${formatLongDate(manilaDate(opens))} at ${rt.state.release.releaseTime}` };
    } else sheet = { kind: "slots", slots: rt.state.sheet(date, course.id) };
    if (isLegacy()) return c.html(legacyTeeSheetPage({ ...legacyMember(c), date, course, courses: CLUB_COURSES, sheet }));
    return c.html(renderTeeSheetPage({ ...member(c), date, course, courses: CLUB_COURSES, sheet }));
  });

  app.get("/book", (c) => {
    const slot = parseSlotId(c.req.query("slotId") ?? "");
    const course = slot && findCourse(slot.courseId);
    if (!slot || !course) return c.html(renderNotFoundPage({ ...member(c), message: "Unknown tee time." }), 404);
    const account = c.get("account");
    const self: SimPlayer = { type: "Member", firstName: account.firstName, lastName: account.lastName, memberId: account.membershipNumber, cart: "", fee: "Charge to my account" };
    return c.html(renderBookingFormPage({ ...member(c), course, date: slot.date, time: slot.time, slotId: c.req.query("slotId") ?? "", self }));
  });

  app.post("/book", async (c) => {
    const form = await readForm(c);
    const email = c.get("account").email;
    const request = { date: form.date ?? "", courseId: form.course ?? "", slotId: form.slotId ?? "", time: form.time ?? "", players: readPlayers(form) };
    const outcome = rt.state.book(email, request, rt.clubNow());
    recordBookingPost(rt, form, email, outcome.ok ? "confirmed" : outcome.outcome, outcome.ok ? outcome.booking.ref : null, rt.arrivalOf(c.req.raw));
    if (!outcome.ok) return c.html(refusal(c, outcome.outcome, outcome.message));
    return c.html(result(c, "booked", outcome.booking));
  });

  app.get("/bookings", (c) => {
    const bookings = rt.state.bookingsOf(c.get("account").email);
    if (isLegacy()) return c.html(legacyBookingsPage({ ...legacyMember(c), bookings, courseName }));
    return c.html(renderBookingsPage({ ...member(c), bookings, courseName }));
  });

  app.get("/bookings/:ref/edit", (c) => {
    const booking = rt.state.bookingOf(c.get("account").email, c.req.param("ref"));
    if (!booking) return c.html(renderNotFoundPage({ ...member(c), message: "Booking not found." }), 404);
    return c.html(renderEditFormPage({ ...member(c), booking, courseName: courseName(booking.courseId) }));
  });

  app.post("/bookings/:ref/edit", async (c) => {
    const form = await readForm(c);
    const edited = rt.state.editBooking(c.get("account").email, c.req.param("ref"), readPlayers(form), rt.clubNow());
    if (!edited) return c.html(renderNotFoundPage({ ...member(c), message: "Booking not found." }), 404);
    if (!edited.ok) return c.html(refusal(c, edited.outcome, edited.message));
    return c.html(result(c, "updated", edited.booking));
  });

  app.post("/bookings/:ref/cancel", (c) => {
    const booking = rt.state.cancelBooking(c.get("account").email, c.req.param("ref"));
    if (!booking) return c.html(renderNotFoundPage({ ...member(c), message: "Booking not found." }), 404);
    return c.html(result(c, "cancelled", booking));
  });

  return app;
}

/**
 * Logs a booking post with when it reached the club (arrival.ts): at its front door, or when the
 * server took it in, so that a burst of posts waiting their turn shows when each arrived, not when
 * the club got round to it.
 */
export function recordBookingPost(rt: SimRuntime, form: Form, email: string, outcome: BookingOutcome, ref: string | null, arrival: Arrival = { clubMs: rt.clubNow() }): void {
  rt.state.recordAttempt({
    slotId: form.slotId ?? "",
    date: form.date ?? "",
    time: form.time ?? "",
    course: form.course ?? "",
    email,
    arrivedClubMs: arrival.clubMs,
    ...(arrival.queuedMs !== undefined ? { queuedMs: arrival.queuedMs } : {}),
    outcome,
    ref,
    isRival: false,
  });
}
