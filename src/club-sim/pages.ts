/**
 * Server-rendered HTML of the demo club. Two layouts: 'standard', which the adapter's
 * parsers read, and 'changed', the same content in a redesigned markup that they must
 * refuse (the "club changed its site" fault).
 */
import { formatEventDate, formatLongDate, minutesOf } from "../domain/manila-time.ts";
import { CART_CHOICES, GUEST_FEE_CHOICES, MAX_PLAYERS, MEMBER_FEE_CHOICES, PLAYER_TYPES, type ClubAccount, type ClubCourse } from "./demo-data.ts";
import type { SimAdvisory, SimBooking, SimPlayer, SlotView } from "./state.ts";

/** 'legacy' is a second, differently written portal the adapter must read (legacy-pages.ts). */
export type PageLayout = "standard" | "changed" | "legacy";

const CLUB_NAME = "Southwoods Golf &amp; Country Club";

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
}

/** '5:04 AM' — the club shows 12-hour times, as many portals do. */
export function formatTime12(time: string): string {
  const minutes = minutesOf(time);
  const h24 = Math.floor(minutes / 60);
  const suffix = h24 < 12 ? "AM" : "PM";
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${h12}:${String(minutes % 60).padStart(2, "0")} ${suffix}`;
}

interface ShellOptions {
  title: string;
  layout: PageLayout;
  csrf?: string;
  memberName?: string;
}

function shell(body: string, { title, layout, csrf, memberName }: ShellOptions): string {
  const meta = csrf ? `<meta name="${layout === "standard" ? "csrf-token" : "x-token"}" content="${escapeHtml(csrf)}">` : "";
  const nav = memberName
    ? `<nav class="member-nav"><a href="/members/home">Home</a> <a href="/members/tee-sheet">Tee Sheet</a> <a href="/members/bookings">My Bookings</a> <a href="/advisories">Advisories</a> <a href="/logout">Sign out</a></nav>`
    : `<nav class="public-nav"><a href="/login">Member login</a> <a href="/advisories">Advisories</a></nav>`;
  const header =
    layout === "standard" ? `<header class="site-header"><h1>${CLUB_NAME}</h1>${nav}</header>` : `<div class="topbar"><span class="brand">${CLUB_NAME}</span>${nav}</div>`;
  const main = layout === "standard" ? `<main id="content">${body}</main>` : `<div class="page-body">${body}</div>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} — Southwoods Members</title>${meta}</head>
<body>${header}${main}<footer>&copy; Southwoods Golf &amp; Country Club</footer></body></html>`;
}

// ── login and home ───────────────────────────────────────────────────────

export function renderLoginPage(options: { layout: PageLayout; token: string; error?: string; next?: string; email?: string }): string {
  const { layout, token, error, next, email } = options;
  const nextField = next ? `<input type="hidden" name="next" value="${escapeHtml(next)}">` : "";
  const errorBox = error
    ? layout === "standard"
      ? `<div class="alert alert-error" role="alert">${escapeHtml(error)}</div>`
      : `<span class="flash">${escapeHtml(error)}</span>`
    : "";
  const body =
    layout === "standard"
      ? `<h2>Member Login</h2>${errorBox}
<form id="login-form" method="post" action="/login">
<input type="hidden" name="_csrf" value="${escapeHtml(token)}">${nextField}
<label>Email <input type="email" name="email" value="${escapeHtml(email ?? "")}" required></label>
<label>Password <input type="password" name="password" required></label>
<button type="submit">Sign in</button>
</form>`
      : // The redesigned site asks for the email first and the password on a page of its own,
        // a flow the adapter does not know: it must refuse this page, not post half a login.
        `<h2>Sign in to your account</h2>${errorBox}
<form class="signin" method="post" action="/login/identify">
<input type="hidden" name="authenticity_token" value="${escapeHtml(token)}">${nextField}
<input type="text" name="username" placeholder="Email address">
<button>Continue</button>
</form>`;
  return shell(body, { title: "Member Login", layout });
}

export function renderHomePage(options: { layout: PageLayout; csrf: string; account: ClubAccount }): string {
  const { layout, csrf, account } = options;
  const name = `${account.firstName} ${account.lastName}`;
  const body =
    layout === "standard"
      ? `<section id="member-home"><p class="welcome">Welcome, <span class="member-name">${escapeHtml(name)}</span> (<span class="member-number">${escapeHtml(account.membershipNumber)}</span>)</p>
<p><a href="/members/tee-sheet">Book a tee time</a> · <a href="/members/bookings">My bookings</a></p></section>`
      : `<div class="dashboard"><h2>Hello ${escapeHtml(name)}</h2><small>Member no. ${escapeHtml(account.membershipNumber)}</small></div>`;
  return shell(body, { title: "Home", layout, csrf, memberName: name });
}

// ── tee sheet ────────────────────────────────────────────────────────────

export type SheetState = { kind: "slots"; slots: SlotView[] } | { kind: "closed" } | { kind: "not_released"; opensText: string };

const STATUS_TEXT: Record<SlotView["status"], string> = { AVAILABLE: "Available", BOOKED: "Booked", BLOCKED: "Blocked" };

export function renderTeeSheetPage(options: {
  layout: PageLayout;
  csrf: string;
  memberName: string;
  date: string;
  course: ClubCourse;
  courses: readonly ClubCourse[];
  sheet: SheetState;
}): string {
  const { layout, csrf, memberName, date, course, courses, sheet } = options;
  const picker = `<form class="sheet-picker" method="get" action="/members/tee-sheet"><input type="date" name="date" value="${date}">
<select name="course">${courses.map((c) => `<option value="${c.id}"${c.id === course.id ? " selected" : ""}>${escapeHtml(c.name)}</option>`).join("")}</select><button>Show</button></form>`;
  const heading = `<h2>${escapeHtml(course.name)} — ${formatLongDate(date)}</h2>`;
  const body = layout === "standard" ? standardSheet(date, course, sheet) : changedSheet(sheet);
  return shell(`${picker}${heading}${body}`, { title: "Tee Sheet", layout, csrf, memberName });
}

function standardSheet(date: string, course: ClubCourse, sheet: SheetState): string {
  const open = `<section id="tee-sheet" data-date="${date}" data-course="${course.id}">`;
  if (sheet.kind === "closed") return `${open}<p class="sheet-notice" id="no-tee-times">No tee times available for this date.</p></section>`;
  if (sheet.kind === "not_released") {
    return `${open}<p class="sheet-notice" id="not-released">Tee times for this date are not yet released. Booking opens ${escapeHtml(sheet.opensText)}.</p></section>`;
  }
  const rows = sheet.slots
    .map((slot) => {
      const action = slot.status === "AVAILABLE" ? `<a class="book-link" href="/members/book?slotId=${encodeURIComponent(slot.slotId)}">Book</a>` : "&mdash;";
      return `<tr class="slot" data-slot-id="${escapeHtml(slot.slotId)}"><td class="slot-time">${formatTime12(slot.time)}</td><td class="slot-status">${STATUS_TEXT[slot.status]}</td><td class="slot-action">${action}</td></tr>`;
    })
    .join("\n");
  return `${open}<table class="tee-sheet"><thead><tr><th>Tee Time</th><th>Status</th><th></th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}

function changedSheet(sheet: SheetState): string {
  if (sheet.kind !== "slots") return `<div class="empty-state">Nothing to show.</div>`;
  const cells = sheet.slots
    .map(
      (slot) =>
        `<div class="time-card ${slot.status.toLowerCase()}" data-id="${escapeHtml(slot.slotId)}"><b>${formatTime12(slot.time)}</b><i>${STATUS_TEXT[slot.status]}</i></div>`,
    )
    .join("\n");
  return `<div class="times-grid">${cells}</div>`;
}

// ── booking form ─────────────────────────────────────────────────────────

function options(values: readonly string[], selected: string): string {
  return values.map((v) => `<option${v === selected ? " selected" : ""}>${escapeHtml(v)}</option>`).join("");
}

function playerFields(index: number, player: SimPlayer | undefined): string {
  const n = index + 1;
  const p = player ?? { type: "", firstName: "", lastName: "", memberId: "", cart: "", fee: "" };
  return `<fieldset class="player"><legend>Player ${n}</legend>
<select name="p${n}_type"><option value=""></option>${options(PLAYER_TYPES, p.type)}</select>
<input name="p${n}_first" placeholder="First name (guests)" value="${escapeHtml(p.firstName)}">
<input name="p${n}_last" placeholder="Last name" value="${escapeHtml(p.lastName)}">
<input name="p${n}_id" placeholder="Membership no. (members)" value="${escapeHtml(p.memberId ?? "")}">
<select name="p${n}_cart"><option value=""></option>${options(CART_CHOICES, p.cart)}</select>
<select name="p${n}_fee"><option value=""></option>${options([...MEMBER_FEE_CHOICES, ...GUEST_FEE_CHOICES], p.fee)}</select>
</fieldset>`;
}

function playersForm(players: SimPlayer[]): string {
  return Array.from({ length: MAX_PLAYERS }, (_, i) => playerFields(i, players[i])).join("\n");
}

export function renderBookingFormPage(options: {
  layout: PageLayout;
  csrf: string;
  memberName: string;
  course: ClubCourse;
  date: string;
  time: string;
  slotId: string;
  self: SimPlayer;
}): string {
  const { layout, csrf, memberName, course, date, time, slotId, self } = options;
  const body = `<h2>Book ${escapeHtml(course.name)} — ${formatLongDate(date)} ${formatTime12(time)}</h2>
<form id="booking-form" method="post" action="/members/book">
<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
<input type="hidden" name="slotId" value="${escapeHtml(slotId)}"><input type="hidden" name="date" value="${date}">
<input type="hidden" name="course" value="${course.id}"><input type="hidden" name="time" value="${time}">
${playersForm([self])}
<button type="submit">Confirm booking</button></form>`;
  return shell(body, { title: "Book a Tee Time", layout, csrf, memberName });
}

export function renderEditFormPage(options: { layout: PageLayout; csrf: string; memberName: string; booking: SimBooking; courseName: string }): string {
  const { layout, csrf, memberName, booking, courseName } = options;
  const body = `<h2>Edit players — ${escapeHtml(courseName)} ${formatLongDate(booking.date)} ${formatTime12(booking.time)}</h2>
<form id="edit-form" method="post" action="/members/bookings/${encodeURIComponent(booking.ref)}/edit">
<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
${playersForm(booking.players)}
<button type="submit">Save players</button></form>`;
  return shell(body, { title: "Edit Booking", layout, csrf, memberName });
}

// ── results ──────────────────────────────────────────────────────────────

export type ResultKind = "booked" | "updated" | "cancelled";

const RESULT_HEADINGS: Record<ResultKind, string> = { booked: "Booking confirmed", updated: "Booking updated", cancelled: "Booking cancelled" };

export function renderResultPage(options: { layout: PageLayout; csrf: string; memberName: string; kind: ResultKind; booking: SimBooking; courseName: string }): string {
  const { layout, csrf, memberName, kind, booking, courseName } = options;
  const details = `${escapeHtml(courseName)}, ${formatLongDate(booking.date)} at ${formatTime12(booking.time)}`;
  const body =
    layout === "standard"
      ? `<section id="booking-result" class="result-ok"><h2>${RESULT_HEADINGS[kind]}</h2>
<p>Booking reference: <strong class="booking-ref">${escapeHtml(booking.ref)}</strong></p><p class="booking-details">${details}</p>
<p><a href="/members/bookings">My bookings</a></p></section>`
      : `<div class="toast success">${RESULT_HEADINGS[kind]} (#${escapeHtml(booking.ref)}) — ${details}</div>`;
  return shell(body, { title: RESULT_HEADINGS[kind], layout, csrf, memberName });
}

export function renderRefusalPage(options: { layout: PageLayout; csrf: string; memberName: string; message: string }): string {
  const { layout, csrf, memberName, message } = options;
  const body =
    layout === "standard"
      ? `<section id="booking-result" class="result-error"><h2>Your request could not be completed</h2><div class="alert alert-error" role="alert">${escapeHtml(message)}</div>
<p><a href="/members/tee-sheet">Back to the tee sheet</a></p></section>`
      : `<div class="toast danger">${escapeHtml(message)}</div>`;
  return shell(body, { title: "Request not completed", layout, csrf, memberName });
}

// ── bookings ─────────────────────────────────────────────────────────────

function playerItem(player: SimPlayer): string {
  const name = `${player.firstName} ${player.lastName}`.trim();
  return `<li class="player"><span class="player-name">${escapeHtml(name)}</span> <span class="player-type">${escapeHtml(player.type)}</span> <span class="player-id">${escapeHtml(player.memberId ?? "")}</span></li>`;
}

export function renderBookingsPage(options: { layout: PageLayout; csrf: string; memberName: string; bookings: SimBooking[]; courseName: (id: string) => string }): string {
  const { layout, csrf, memberName, bookings, courseName } = options;
  let body: string;
  if (layout === "changed") {
    body = bookings
      .map((b) => `<div class="reservation-card"><h4>${escapeHtml(courseName(b.courseId))}</h4><span>${b.date} ${b.time}</span><span>#${escapeHtml(b.ref)}</span></div>`)
      .join("\n");
    body = `<h2>Reservations</h2><div class="cards">${body}</div>`;
  } else if (bookings.length === 0) {
    body = `<h2>My Bookings</h2><section id="my-bookings"><p class="bookings-notice" id="no-bookings">You have no upcoming bookings.</p></section>`;
  } else {
    const rows = bookings
      .map(
        (b) => `<tr class="booking" data-ref="${escapeHtml(b.ref)}"><td class="booking-ref">${escapeHtml(b.ref)}</td><td class="booking-date">${formatLongDate(b.date)}</td>
<td class="booking-time">${formatTime12(b.time)}</td><td class="booking-course">${escapeHtml(courseName(b.courseId))}</td>
<td class="booking-players"><ul>${b.players.map(playerItem).join("")}</ul></td>
<td class="booking-actions"><a href="/members/bookings/${encodeURIComponent(b.ref)}/edit">Edit players</a>
<form method="post" action="/members/bookings/${encodeURIComponent(b.ref)}/cancel"><input type="hidden" name="_csrf" value="${escapeHtml(csrf)}"><button>Cancel</button></form></td></tr>`,
      )
      .join("\n");
    body = `<h2>My Bookings</h2><section id="my-bookings"><table class="bookings"><thead><tr><th>Reference</th><th>Date</th><th>Time</th><th>Course</th><th>Players</th><th></th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
  }
  return shell(body, { title: "My Bookings", layout, csrf, memberName });
}

// ── advisories and errors ────────────────────────────────────────────────

export function renderAdvisoriesPage(options: { layout: PageLayout; advisories: SimAdvisory[] }): string {
  const { layout, advisories } = options;
  let body: string;
  if (layout === "changed") {
    body = `<h2>News</h2>${advisories.map((a) => `<div class="notice"><strong>${escapeHtml(a.title)}</strong> ${escapeHtml(a.content)}</div>`).join("\n")}`;
  } else if (advisories.length === 0) {
    body = `<h2>Club Advisories</h2><section id="advisories"><p class="advisories-notice" id="no-advisories">There are no advisories at this time.</p></section>`;
  } else {
    const items = advisories
      .map((a) => {
        const date = a.eventDate ? `<p class="advisory-date">${formatEventDate(a.eventDate)}</p>` : "";
        return `<article class="advisory"><h3 class="advisory-title">${escapeHtml(a.title)}</h3>${date}<div class="advisory-content">${escapeHtml(a.content)}</div></article>`;
      })
      .join("\n");
    body = `<h2>Club Advisories</h2><section id="advisories">
${items}
</section>`;
  }
  return shell(body, { title: "Advisories", layout });
}

export function renderErrorPage(status: number, message: string): string {
  return `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

export function renderNotFoundPage(options: { layout: PageLayout; csrf?: string; memberName?: string; message: string }): string {
  const body = `<section id="not-found"><h2>Not found</h2><p class="alert alert-error">${escapeHtml(options.message)}</p></section>`;
  return shell(body, { title: "Not found", layout: options.layout, csrf: options.csrf, memberName: options.memberName });
}
