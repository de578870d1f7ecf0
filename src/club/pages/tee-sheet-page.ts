import { pageNotUnderstood } from "../errors.ts";
import { clubTeeSheetSchema, type ClubSlot, type ClubTeeSheet } from "../records.ts";
import { courseIdFromName, findCourseIn, isTimeOnly, matchCourse, normaliseCourseName, readClubDate, readClubTime, readSlotStatus, type PageReadOptions } from "../text.ts";
import { pageText, parseDocument, tableRows, textOf, titleTexts, validateRecord, type HtmlDocument, type HtmlElement, type TableRow } from "./html.ts";

const PAGE = "tee sheet";

const NOT_RELEASED =
  /\bnot\s+(yet\s+)?(been\s+)?(released|open(ed)?|available\s+for\s+booking|bookable)\b|\bnot\s+yet\s+available\b|\bbooking\s+(opens|will\s+open)\b|\bopens\s+on\b/i;
const NO_TIMES = /\bno\s+(tee\s+)?times?\b|\bno\s+tee\s+times\b|\bthere\s+are\s+no\s+(tee\s+)?times\b|\bcourse\s+(is\s+)?closed\b/i;

/**
 * A tee sheet is read by meaning: its date and course from wherever the page names them, its
 * slots from table rows holding a time. It has exactly one of: slot rows, a 'no tee times'
 * notice (course closed, an empty day) or a 'not yet released' notice; anything else is a
 * page we do not know. A status it does not know means unavailable, never a failure.
 */
export function parseTeeSheetPage(html: string, options: PageReadOptions = {}): ClubTeeSheet {
  const document = parseDocument(html);
  const rows = tableRows(document).filter((r) => timeCellOf(r) !== null);
  const table = rows[0]?.row.closest("table") ?? undefined;
  const date = readSheetDate(document, options, table);
  if (!date) throw pageNotUnderstood(PAGE, "date of the sheet");
  const course = readSheetCourse(document, options, table);
  if (rows.length > 0) return validateRecord(clubTeeSheetSchema, { date, course, released: true, slots: rows.map((r) => readSlot(r)) }, PAGE);
  const text = pageText(document);
  if (NOT_RELEASED.test(text)) return validateRecord(clubTeeSheetSchema, { date, course, released: false, slots: [] }, PAGE);
  if (NO_TIMES.test(text)) return validateRecord(clubTeeSheetSchema, { date, course, released: true, slots: [] }, PAGE);
  throw pageNotUnderstood(PAGE, "slot rows or a 'no tee times' notice");
}

function readSheetDate(document: HtmlDocument, options: PageReadOptions, table: HtmlElement | undefined): string | null {
  const order = options.numericDateOrder ?? null;
  for (const element of document.querySelectorAll("[data-date]")) {
    const date = readClubDate(element.getAttribute("data-date") ?? "", order);
    if (date) return date;
  }
  for (const text of titleTexts(document, table)) {
    const date = readClubDate(text, order);
    if (date) return date;
  }
  for (const input of document.querySelectorAll("input")) {
    if (!/date/i.test(`${input.getAttribute("name") ?? ""} ${input.getAttribute("type") ?? ""}`)) continue;
    const date = readClubDate(input.getAttribute("value") ?? "", order);
    if (date) return date;
  }
  return null;
}

/** The course: a data attribute, the picker's selected option, or a course name in a heading. */
function readSheetCourse(document: HtmlDocument, options: PageReadOptions, table: HtmlElement | undefined): string {
  const courses = options.courses;
  const known = (value: string) => (courses ? (matchCourse(value, courses)?.id ?? null) : courseIdFromName(normaliseCourseName(value)) || null);
  const named: string[] = [];
  for (const element of document.querySelectorAll("[data-course]")) {
    const value = element.getAttribute("data-course") ?? "";
    named.push(value);
    const id = known(value);
    if (id) return id;
  }
  for (const select of document.querySelectorAll("select")) {
    if (!/course/i.test(`${select.getAttribute("name") ?? ""} ${select.getAttribute("id") ?? ""}`)) continue;
    const option = [...select.querySelectorAll("option")].find((o) => o.hasAttribute("selected"));
    if (!option) continue;
    const id = known(option.getAttribute("value") ?? "") ?? known(textOf(option));
    if (id) return id;
    named.push(textOf(option));
  }
  if (courses) {
    for (const text of titleTexts(document, table)) {
      const course = findCourseIn(text, courses);
      if (course) return course.id;
    }
  }
  const seen = named.filter(Boolean);
  throw pageNotUnderstood(PAGE, `a known course name${seen.length ? ` (the page names '${seen[0]}')` : " or alias on the page"}`);
}

function timeCellOf({ cells, headers }: TableRow): number | null {
  const byHeader = headers.findIndex((h, i) => /time|start/.test(h) && isTimeOnly(textOf(cells[i])));
  if (byHeader >= 0) return byHeader;
  const index = cells.findIndex((cell) => isTimeOnly(textOf(cell)));
  return index >= 0 ? index : null;
}

function statusCellOf({ cells, headers }: TableRow, timeIndex: number): HtmlElement | null {
  const byHeader = headers.findIndex((h) => /status|availab/.test(h));
  if (byHeader >= 0 && cells[byHeader]) return cells[byHeader];
  const byClass = cells.find((cell) => /status/i.test(cell.getAttribute("class") ?? ""));
  if (byClass) return byClass;
  return cells.find((cell, i) => i !== timeIndex && textOf(cell) !== "") ?? null;
}

const ID_PARAMS = ["slotid", "slot_id", "slot", "teetimeid", "teetime", "tee_time_id", "id"];

/** The slot's id: a data attribute on the row, a hidden field, or the booking link's query. */
function slotIdOf(row: HtmlElement): string | null {
  for (const attribute of row.attributes) {
    if (/^data-(slot-?id|slot|id|tee-?time-?id|teetime)$/.test(attribute.name) && attribute.value.trim()) return attribute.value.trim();
  }
  for (const input of row.querySelectorAll("input")) {
    if (/slot|tee/i.test(input.getAttribute("name") ?? "") && input.getAttribute("value")?.trim()) return input.getAttribute("value")!.trim();
  }
  for (const link of row.querySelectorAll("a[href]")) {
    const url = new URL(link.getAttribute("href") ?? "", "http://club.invalid/");
    const params = new Map([...url.searchParams].map(([key, value]) => [key.toLowerCase(), value]));
    for (const name of ID_PARAMS) {
      const value = params.get(name)?.trim();
      if (value) return value;
    }
  }
  return null;
}

function readSlot(row: TableRow): ClubSlot {
  const timeIndex = timeCellOf(row) ?? 0;
  const time = readClubTime(textOf(row.cells[timeIndex]));
  const slotId = slotIdOf(row.row);
  if (!time) throw pageNotUnderstood(PAGE, `time of a slot row ('${textOf(row.row)}')`);
  if (!slotId) throw pageNotUnderstood(PAGE, `slot id of the ${time} row`);
  return { time, status: readSlotStatus(textOf(statusCellOf(row, timeIndex))), slotId };
}
