import { describe, expect, test } from "bun:test";
import { ClubError } from "../../src/club/errors.ts";
import { parseAdvisoriesPage } from "../../src/club/pages/advisories-page.ts";
import { parseBookingResultPage, parseNotFoundMessage, refusalKindOf } from "../../src/club/pages/booking-result-page.ts";
import { parseBookingsPage } from "../../src/club/pages/bookings-page.ts";
import { parseHomePage } from "../../src/club/pages/home-page.ts";
import { isLoginPage, parseLoginPage } from "../../src/club/pages/login-page.ts";
import { parseTeeSheetPage } from "../../src/club/pages/tee-sheet-page.ts";
import { parseClubTime } from "../../src/club/pages/html.ts";

const fixture = (name: string) => Bun.file(`${import.meta.dir}/../fixtures/club/${name}`).text();

/** Runs a parser and returns the ClubError it threw (fails the test if it threw nothing). */
function errorOf(parse: () => unknown): ClubError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ClubError);
    return error as ClubError;
  }
  throw new Error("expected the parser to refuse the page");
}

describe("login page", () => {
  test("reads the form token and action", async () => {
    const page = parseLoginPage(await fixture("login.html"));
    expect(page.csrf).toMatch(/^[0-9a-f]{32}$/);
    expect(page.action).toBe("/login");
    expect(page.error).toBeNull();
  });

  test("reads the error line after wrong credentials", async () => {
    expect(parseLoginPage(await fixture("login-error.html")).error).toBe("Invalid email or password.");
  });

  test("tells a login page from other pages", async () => {
    expect(isLoginPage(await fixture("login.html"))).toBe(true);
    expect(isLoginPage(await fixture("home.html"))).toBe(false);
  });
});

describe("member home page", () => {
  test("reads the member and the session's form token", async () => {
    const home = parseHomePage(await fixture("home.html"));
    expect(home).toMatchObject({ memberName: "Maria Santos", membershipNumber: "SW-1001" });
    expect(home.csrf).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("tee sheet page", () => {
  test("reads every slot with time, status and id", async () => {
    const sheet = parseTeeSheetPage(await fixture("tee-sheet.html"));
    expect(sheet).toMatchObject({ date: "2025-03-05", course: "masters", released: true });
    expect(sheet.slots[0]).toEqual({ time: "05:04", status: "AVAILABLE", slotId: "MAS-20250305-0504" });
    expect(sheet.slots[1]).toMatchObject({ time: "05:12", status: "BOOKED" });
    expect(sheet.slots[2]).toMatchObject({ time: "05:20", status: "BLOCKED" });
    expect(new Set(sheet.slots.map((s) => s.slotId)).size).toBe(sheet.slots.length);
    // Masters keeps its mid-morning block free: 05:04–07:52 then 11:00 onwards, afternoon in 24-hour time.
    const times = sheet.slots.map((s) => s.time);
    expect(times).toContain("07:52");
    expect(times).not.toContain("08:00");
    expect(times).toContain("11:00");
    expect(times).toContain("16:44");
  });

  test("reads a fully booked day as slots that are all booked", async () => {
    const sheet = parseTeeSheetPage(await fixture("tee-sheet-full.html"));
    expect(sheet.slots.length).toBeGreaterThan(50);
    expect(sheet.slots.every((s) => s.status === "BOOKED")).toBe(true);
  });

  test("reads an empty day (course closed) as released with no slots", async () => {
    expect(parseTeeSheetPage(await fixture("tee-sheet-closed.html"))).toEqual({ date: "2025-03-10", course: "legends", released: true, slots: [] });
  });

  test("reads a date that is not released yet", async () => {
    expect(parseTeeSheetPage(await fixture("tee-sheet-not-released.html"))).toEqual({ date: "2025-03-11", course: "masters", released: false, slots: [] });
  });

  test("reads Sunday Legends with 4-minute intervals from 11:00", async () => {
    const times = parseTeeSheetPage(await fixture("tee-sheet-sunday-legends.html")).slots.map((s) => s.time);
    expect(times.slice(times.indexOf("10:56"), times.indexOf("10:56") + 4)).toEqual(["10:56", "11:00", "11:04", "11:08"]);
    expect(times.at(-1)).toBe("16:48");
  });

  test("refuses a sheet whose table lost its rows (never an empty list)", () => {
    const html = `<main><section id="tee-sheet" data-date="2025-03-05" data-course="masters"><table class="tee-sheet"><tbody></tbody></table></section></main>`;
    expect(errorOf(() => parseTeeSheetPage(html))).toMatchObject({ kind: "page_not_understood", page: "tee sheet" });
  });

  // Any status other than AVAILABLE means unavailable; an unknown word never fails the page.
  test("reads a status it does not know as unavailable, keeping the rest of the sheet", async () => {
    const html = (await fixture("tee-sheet.html")).replace(">Available<", ">Waitlist<");
    const sheet = parseTeeSheetPage(html);
    expect(sheet.slots[0]).toEqual({ time: "05:04", status: "BOOKED", slotId: "MAS-20250305-0504" });
    expect(sheet.slots.length).toBe(parseTeeSheetPage(await fixture("tee-sheet.html")).slots.length);
  });

  test("refuses a sheet that names its date nowhere", async () => {
    const html = (await fixture("tee-sheet.html")).replace('data-date="2025-03-05"', "").replace('value="2025-03-05"', "").replace("Wednesday Mar 5, 2025", "");
    expect(errorOf(() => parseTeeSheetPage(html))).toMatchObject({ kind: "page_not_understood", missing: "date of the sheet" });
  });
});

describe("my bookings page", () => {
  test("reads reference, long date, time, course and players", async () => {
    const bookings = parseBookingsPage(await fixture("bookings.html"));
    expect(bookings).toHaveLength(2);
    const [masters, legends] = bookings;
    expect(masters).toMatchObject({ date: "2025-03-05", time: "06:00", course: "masters", courseName: "Masters" });
    expect(masters.ref).toMatch(/^SWB-\d+$/);
    expect(legends).toMatchObject({ date: "2025-03-08", time: "12:20", course: "legends" });
    expect(legends.players).toEqual([
      { name: "Maria Santos", type: "Member", id: "SW-1001" },
      { name: "Pat Lee", type: "Guest", id: "" },
      { name: "Paolo Santos", type: "Spouse", id: "SW-1001-S" },
    ]);
  });

  test("reads the 'no bookings' notice as an empty list", async () => {
    expect(parseBookingsPage(await fixture("bookings-empty.html"))).toEqual([]);
  });

  test("refuses a booking whose date it cannot read", async () => {
    const html = (await fixture("bookings.html")).replace("Wednesday Mar 5, 2025", "05/03/2025");
    expect(errorOf(() => parseBookingsPage(html)).missing).toContain("readable date");
  });
});

describe("booking result page", () => {
  test("reads a confirmation with its reference", async () => {
    expect(parseBookingResultPage(await fixture("booking-confirmed.html"))).toMatchObject({ outcome: "ok", ref: expect.stringMatching(/^SWB-\d+$/) });
    expect(parseBookingResultPage(await fixture("booking-cancelled.html"))).toMatchObject({ outcome: "ok", heading: "Booking cancelled" });
  });

  test.each([
    ["booking-refused-taken.html", "slot_taken"],
    ["booking-refused-not-open.html", "not_yet_open"],
    ["booking-refused-guests.html", "rule_refused"],
    ["booking-refused-player.html", "player_not_found"],
  ])("reads the refusal in %s as %s", async (name, kind) => {
    const result = parseBookingResultPage(await fixture(name));
    expect(result).toMatchObject({ outcome: "refused", kind });
    if (result.outcome === "refused") expect(result.message.length).toBeGreaterThan(10);
  });

  test("maps the club's wording to kinds", () => {
    expect(refusalKindOf("This slot is already booked")).toBe("slot_taken");
    expect(refusalKindOf("Member not found")).toBe("player_not_found");
    expect(refusalKindOf("Minimum of 2 players")).toBe("rule_refused");
  });

  test("reads the message of a not-found page", async () => {
    expect(parseNotFoundMessage(await fixture("booking-not-found.html"))).toBe("Booking not found.");
    expect(parseNotFoundMessage(await fixture("home.html"))).toBeNull();
  });
});

describe("advisories page", () => {
  test("reads title, optional event date and content with its bullets", async () => {
    const advisories = parseAdvisoriesPage(await fixture("advisories.html"));
    expect(advisories.length).toBeGreaterThanOrEqual(2);
    expect(advisories[0]).toMatchObject({ title: "Course Maintenance", eventDate: null });
    expect(advisories[0].content).toContain("•");
    expect(advisories.find((a) => a.title === "Club Championship")?.eventDate).toBe("2026-12-12");
  });

  test("reads the 'no advisories' notice as an empty list", async () => {
    expect(parseAdvisoriesPage(await fixture("advisories-empty.html"))).toEqual([]);
  });
});

describe("a changed layout is never read as an empty result", () => {
  test.each([
    ["changed-login.html", parseLoginPage, "login"],
    ["changed-home.html", parseHomePage, "member home"],
    ["changed-tee-sheet.html", parseTeeSheetPage, "tee sheet"],
    ["changed-tee-sheet-closed.html", parseTeeSheetPage, "tee sheet"],
    ["changed-bookings.html", parseBookingsPage, "my bookings"],
    ["changed-advisories.html", parseAdvisoriesPage, "advisories"],
    ["changed-booking-result.html", parseBookingResultPage, "booking result"],
  ] as const)("%s → page_not_understood", async (name, parse, page) => {
    const html = await fixture(name);
    const error = errorOf(() => parse(html));
    expect(error.kind).toBe("page_not_understood");
    expect(error.page).toBe(page);
    expect(error.missing).toBeTruthy();
    expect(error.message).toContain(page);
  });

  test("an empty or foreign document is refused too", () => {
    expect(errorOf(() => parseTeeSheetPage("")).kind).toBe("page_not_understood");
    expect(errorOf(() => parseBookingsPage("<html><body>Gateway maintenance</body></html>")).kind).toBe("page_not_understood");
  });
});

describe("club time text", () => {
  test.each([
    ["5:04 AM", "05:04"],
    ["12:00 PM", "12:00"],
    ["12:40 AM", "00:40"],
    ["4:48 PM", "16:48"],
    ["16:48", "16:48"],
  ])("%s → %s", (text, time) => expect(parseClubTime(text)).toBe(time));

  test.each(["13:00 PM", "5:4 AM", "noon", "24:00"])("%s is unreadable", (text) => expect(parseClubTime(text)).toBeNull());
});

describe("what is a login page", () => {
  test("a member page with a change-password form is not an ended session", () => {
    const page = `<html><body><h2>My profile</h2><form action="/members/pin" method="post"><input type="hidden" name="_csrf" value="t0000000000000001">
<input type="password" name="current"><input type="password" name="next"><button>Change PIN</button></form></body></html>`;
    expect(isLoginPage(page)).toBe(false);
  });

  test("a sign-in form under any names is", () => {
    expect(isLoginPage(`<form method="post"><input type="hidden" name="n" value="x"><input name="u"><input type="password" name="p"></form>`)).toBe(true);
  });

  test("a password field's type in capitals, unquoted, is still one", () => {
    expect(isLoginPage(`<FORM METHOD=POST><INPUT NAME=u><INPUT TYPE=PASSWORD NAME=p></FORM>`)).toBe(true);
  });
});
