import { parseBookingDate } from "../../domain/manila-time.ts";
import { pageNotUnderstood } from "../errors.ts";
import { clubBookingSchema, type ClubBooking } from "../records.ts";
import { courseIdFromName, parseClubTime, parseDocument, requireElement, requireText, textOf, validateRecord, type HtmlElement } from "./html.ts";

const PAGE = "my bookings";

/** The member's bookings; an explicit 'no bookings' notice is the only way to get an empty list. */
export function parseBookingsPage(html: string): ClubBooking[] {
  const document = parseDocument(html);
  const section = requireElement(document, "section#my-bookings", PAGE, "bookings section");
  if (section.querySelector("#no-bookings")) return [];
  const rows = [...section.querySelectorAll("table.bookings tbody tr.booking")];
  if (rows.length === 0) throw pageNotUnderstood(PAGE, "booking rows or a 'no bookings' notice");
  return rows.map(readBooking);
}

function readBooking(row: HtmlElement, index: number): ClubBooking {
  const ref = requireText(row, ".booking-ref", PAGE, `reference of booking ${index + 1}`);
  const dateText = requireText(row, ".booking-date", PAGE, `date of booking ${ref}`);
  const date = parseBookingDate(dateText);
  if (!date) throw pageNotUnderstood(PAGE, `a readable date of booking ${ref} (got '${dateText}')`);
  const time = parseClubTime(requireText(row, ".booking-time", PAGE, `time of booking ${ref}`));
  if (!time) throw pageNotUnderstood(PAGE, `a readable time of booking ${ref}`);
  const courseName = requireText(row, ".booking-course", PAGE, `course of booking ${ref}`);
  const players = [...row.querySelectorAll(".booking-players li.player")].map((item) => ({
    name: textOf(item.querySelector(".player-name")),
    type: textOf(item.querySelector(".player-type")),
    id: textOf(item.querySelector(".player-id")),
  }));
  if (players.length === 0) throw pageNotUnderstood(PAGE, `players of booking ${ref}`);
  return validateRecord(clubBookingSchema, { ref, date, time, course: courseIdFromName(courseName), courseName, players }, PAGE);
}
