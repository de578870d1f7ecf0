/**
 * The demo club's second portal, 'legacy': the same club written the way an older hand-made
 * portal is. Upper-case tags, tables without thead/tbody, 24-hour times, dates as
 * 'Wednesday, 5 March 2025', statuses in capitals with a count of spots, an ASP.NET-style
 * sign-in form (txtUser / txtPwd / __RequestVerificationToken) and refusals in other words.
 * The adapter must read it as it reads the standard one: it is the test of reading by meaning.
 */
import { dayName } from "../domain/manila-time.ts";
import type { ClubAccount, ClubCourse } from "./demo-data.ts";
import type { SimAdvisory, SimBooking, SimPlayer, SlotView } from "./state.ts";

/** The field names of this portal's forms. */
export const LEGACY_TOKEN_FIELD = "__RequestVerificationToken";
export const LEGACY_USER_FIELD = "txtUser";
export const LEGACY_PASSWORD_FIELD = "txtPwd";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
}

/** 'Wednesday, 5 March 2025' */
export function legacyDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return `${dayName(date)}, ${d} ${MONTHS[m - 1]} ${y}`;
}

/** '05:04' stays, '16:48' stays: this portal writes 24-hour times with seconds on the bookings page. */
const withSeconds = (time: string) => `${time}:00`;

/** 'THE MASTERS' */
const courseTitle = (name: string) => `THE ${name.toUpperCase()}`;

function shell(title: string, body: string, member?: { name: string; token: string }): string {
  const nav = member
    ? `<TD CLASS="Nav"><A HREF="/members/home">Main Menu</A> | <A HREF="/members/tee-sheet">Tee Times</A> | <A HREF="/members/bookings">My Reservations</A> | <A HREF="/advisories">Announcements</A> | <A HREF="/logout">Log Off</A></TD>`
    : `<TD CLASS="Nav"><A HREF="/login">Member Log In</A> | <A HREF="/advisories">Announcements</A></TD>`;
  const token = member
    ? `<FORM NAME="frmToken" ACTION="/members/home" METHOD="GET"><INPUT TYPE="HIDDEN" NAME="${LEGACY_TOKEN_FIELD}" VALUE="${escapeHtml(member.token)}"></FORM>`
    : "";
  return `<HTML><HEAD><TITLE>Southwoods G&amp;CC :: ${escapeHtml(title)}</TITLE></HEAD>
<BODY BGCOLOR="#FFFFFF"><TABLE WIDTH="100%" CELLPADDING="4"><TR><TD CLASS="Banner"><FONT SIZE="+2">Southwoods Golf &amp; Country Club</FONT></TD>${nav}</TR></TABLE>
${token}<DIV CLASS="Main">${body}</DIV><HR><SMALL>Powered by ClubLink 2.1</SMALL></BODY></HTML>`;
}

export function legacyLoginPage(options: { token: string; error?: string; next?: string; email?: string }): string {
  const { token, error, next, email } = options;
  const errorBox = error ? `<DIV CLASS="Error Msg">${escapeHtml(error)}</DIV>` : "";
  const nextField = next ? `<INPUT TYPE="HIDDEN" NAME="ReturnUrl" VALUE="${escapeHtml(next)}">` : "";
  return shell(
    "Log In",
    `<H3>Member Log In</H3>${errorBox}
<FORM NAME="frmLogin" METHOD="POST" ACTION="/login">
<INPUT TYPE="HIDDEN" NAME="${LEGACY_TOKEN_FIELD}" VALUE="${escapeHtml(token)}">${nextField}
<TABLE><TR><TD>E-mail</TD><TD><INPUT TYPE="TEXT" NAME="${LEGACY_USER_FIELD}" AUTOCOMPLETE="username" VALUE="${escapeHtml(email ?? "")}"></TD></TR>
<TR><TD>Password</TD><TD><INPUT TYPE="PASSWORD" NAME="${LEGACY_PASSWORD_FIELD}"></TD></TR></TABLE>
<INPUT TYPE="SUBMIT" VALUE="Log In"></FORM>`,
  );
}

export function legacyHomePage(options: { token: string; account: ClubAccount }): string {
  const { token, account } = options;
  const name = `${account.firstName} ${account.lastName}`;
  return shell(
    "Main Menu",
    `<DIV CLASS="MemberInfo">Logged in as <SPAN CLASS="Member-Name">${escapeHtml(name)}</SPAN> &middot; Member No. <SPAN CLASS="Member-No">${escapeHtml(account.membershipNumber)}</SPAN></DIV>`,
    { name, token },
  );
}

export type LegacySheet = { kind: "slots"; slots: SlotView[] } | { kind: "closed" } | { kind: "not_released"; opensText: string };

const LEGACY_STATUS: Record<SlotView["status"], (spots: number) => string> = {
  AVAILABLE: (spots) => `AVAILABLE (${spots} spot${spots === 1 ? "" : "s"})`,
  BOOKED: () => "RESERVED",
  BLOCKED: () => "CLOSED",
};

export function legacyTeeSheetPage(options: { token: string; memberName: string; date: string; course: ClubCourse; courses: readonly ClubCourse[]; sheet: LegacySheet }): string {
  const { token, memberName, date, course, courses, sheet } = options;
  const picker = `<FORM NAME="frmSheet" METHOD="GET" ACTION="/members/tee-sheet"><SELECT NAME="course">${courses
    .map((c) => `<OPTION VALUE="${c.id}"${c.id === course.id ? " SELECTED" : ""}>${escapeHtml(courseTitle(c.name))}</OPTION>`)
    .join("")}</SELECT> <INPUT TYPE="TEXT" NAME="date" VALUE="${date}"> <INPUT TYPE="SUBMIT" VALUE="Go"></FORM>`;
  const heading = `<H3 CLASS="SheetDate">${legacyDate(date)}</H3>`;
  let body: string;
  if (sheet.kind === "closed") body = `<P CLASS="Info">No tee times for this date.</P>`;
  else if (sheet.kind === "not_released") body = `<P CLASS="Info">Too early: the booking window for this date opens on ${escapeHtml(sheet.opensText)}.</P>`;
  else {
    const rows = sheet.slots
      .map((slot) => {
        // Spots left stand for the flight size the portal shows; the demo club books whole flights.
        const status = LEGACY_STATUS[slot.status](4);
        const action = slot.status === "AVAILABLE" ? `<A HREF="/members/book?slotId=${encodeURIComponent(slot.slotId)}">Reserve</A>` : "&nbsp;";
        return `<TR><TD>${slot.time}</TD><TD>${status}</TD><TD><INPUT TYPE="HIDDEN" NAME="slot" VALUE="${escapeHtml(slot.slotId)}">${action}</TD></TR>`;
      })
      .join("\n");
    body = `<TABLE BORDER="1" CELLSPACING="0">
<TR><TH>Start</TH><TH>Availability</TH><TH>&nbsp;</TH></TR>
${rows}
</TABLE>`;
  }
  return shell("Tee Times", `${picker}${heading}${body}`, { name: memberName, token });
}

/** Refusals in this portal's own words, by the outcome the club decided. */
export function legacyRefusalWords(outcome: string, message: string): string {
  switch (outcome) {
    case "slot_taken":
      return "This time was just reserved by another member.";
    case "not_yet_open":
      return `Too early. ${message.replace(/^This date is not yet open for booking\.\s*/, "")}`.trim();
    case "too_many_guests":
      return "Only 3 guests per flight are permitted.";
    case "too_many_players":
      return "A maximum of 4 players per flight is allowed.";
    case "player_not_found":
      return message.replace(/^Player not found/, "Member not found");
    default:
      return message;
  }
}

export function legacyRefusalPage(options: { token: string; memberName: string; message: string }): string {
  return shell("Reservation", `<DIV CLASS="MsgBox Error"><B>Reservation not completed.</B><BR>${escapeHtml(options.message)}</DIV>`, {
    name: options.memberName,
    token: options.token,
  });
}

export function legacyResultPage(options: { token: string; memberName: string; heading: string; booking: SimBooking; courseName: string }): string {
  const { booking } = options;
  return shell(
    "Reservation",
    `<DIV CLASS="MsgBox Success"><H3>${escapeHtml(options.heading)}</H3>Your confirmation number is <B>${escapeHtml(booking.ref)}</B>.<BR>${escapeHtml(courseTitle(options.courseName))}, ${legacyDate(booking.date)} at ${booking.time}</DIV>`,
    { name: options.memberName, token: options.token },
  );
}

function playerText(player: SimPlayer): string {
  const name = `${player.firstName} ${player.lastName}`.trim();
  return `${escapeHtml(name)} (${escapeHtml(player.type)}${player.memberId ? `, ${escapeHtml(player.memberId)}` : ""})`;
}

export function legacyBookingsPage(options: { token: string; memberName: string; bookings: SimBooking[]; courseName: (id: string) => string }): string {
  const { token, memberName, bookings, courseName } = options;
  if (bookings.length === 0) return shell("My Reservations", `<H3>My Reservations</H3><P CLASS="Info">You have no upcoming reservations.</P>`, { name: memberName, token });
  const rows = bookings
    .map(
      (b) =>
        `<TR><TD>${escapeHtml(b.ref)}</TD><TD>${legacyDate(b.date)}</TD><TD>${withSeconds(b.time)}</TD><TD>${escapeHtml(courseTitle(courseName(b.courseId)))}</TD><TD>${b.players.map(playerText).join(", ")}</TD><TD><A HREF="/members/bookings/${encodeURIComponent(b.ref)}/edit">Change</A></TD></TR>`,
    )
    .join("\n");
  return shell(
    "My Reservations",
    `<H3>My Reservations</H3><TABLE BORDER="1"><TR><TH>Conf #</TH><TH>Play Date</TH><TH>Tee Time</TH><TH>Course</TH><TH>Players</TH><TH>&nbsp;</TH></TR>
${rows}
</TABLE>`,
    { name: memberName, token },
  );
}

export function legacyAdvisoriesPage(advisories: SimAdvisory[]): string {
  if (advisories.length === 0) return shell("Announcements", `<H3>Announcements</H3><P>There are currently no announcements.</P>`);
  const items = advisories
    .map((a) => {
      const date = a.eventDate ? `<SPAN CLASS="Date">${legacyDate(a.eventDate)}</SPAN>` : "";
      const parts = a.content
        .split("•")
        .map((p) => p.trim())
        .filter(Boolean);
      return `<DIV CLASS="Announcement"><H4>${escapeHtml(a.title)}</H4>${date}<UL>${parts.map((p) => `<LI>${escapeHtml(p)}</LI>`).join("")}</UL></DIV>`;
    })
    .join("\n");
  return shell("Announcements", `<H3>Announcements</H3>${items}`);
}
