import { pageNotUnderstood } from "../errors.ts";
import { clubTeeSheetSchema, type ClubSlot, type ClubTeeSheet } from "../records.ts";
import { parseClubTime, parseDocument, requireElement, textOf, validateRecord, type HtmlElement } from "./html.ts";

const PAGE = "tee sheet";

const STATUS_BY_TEXT: Record<string, ClubSlot["status"]> = {
  available: "AVAILABLE",
  open: "AVAILABLE",
  booked: "BOOKED",
  reserved: "BOOKED",
  taken: "BOOKED",
  blocked: "BLOCKED",
  closed: "BLOCKED",
};

/**
 * A tee sheet has exactly one of: slot rows, a 'no tee times' notice (course closed, an
 * empty day) or a 'not yet released' notice. Anything else is a page we do not know.
 */
export function parseTeeSheetPage(html: string): ClubTeeSheet {
  const document = parseDocument(html);
  const section = requireElement(document, "section#tee-sheet", PAGE, "tee sheet section");
  const date = section.getAttribute("data-date") ?? "";
  const course = section.getAttribute("data-course") ?? "";
  if (section.querySelector("#not-released")) return validateRecord(clubTeeSheetSchema, { date, course, released: false, slots: [] }, PAGE);
  if (section.querySelector("#no-tee-times")) return validateRecord(clubTeeSheetSchema, { date, course, released: true, slots: [] }, PAGE);
  const rows = [...section.querySelectorAll("table.tee-sheet tbody tr.slot")];
  if (rows.length === 0) throw pageNotUnderstood(PAGE, "slot rows or a 'no tee times' notice");
  return validateRecord(clubTeeSheetSchema, { date, course, released: true, slots: rows.map(readSlot) }, PAGE);
}

function readSlot(row: HtmlElement, index: number): ClubSlot {
  const slotId = row.getAttribute("data-slot-id") ?? "";
  const time = parseClubTime(textOf(row.querySelector(".slot-time")));
  const status = STATUS_BY_TEXT[textOf(row.querySelector(".slot-status")).toLowerCase()];
  if (!slotId) throw pageNotUnderstood(PAGE, `slot id of row ${index + 1}`);
  if (!time) throw pageNotUnderstood(PAGE, `time of slot ${slotId}`);
  if (!status) throw pageNotUnderstood(PAGE, `a known status of slot ${slotId}`);
  return { time, status, slotId };
}
