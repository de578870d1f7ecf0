import { pageNotUnderstood } from "../errors.ts";
import { clubBookingSchema, type ClubBooking } from "../records.ts";
import { courseIdFromName, matchCourse, normaliseCourseName, readClubDate, readClubTime, type PageReadOptions } from "../text.ts";
import { hasWord, pageText, parseDocument, tableRows, tagOf, textOf, validateRecord, type HtmlElement, type TableRow } from "./html.ts";

const PAGE = "my bookings";

const EMPTY_NOTICE = /\b(you\s+have\s+no|no\s+(upcoming\s+|current\s+|future\s+)?(bookings|reservations|tee\s+times))\b/i;

type Role = "ref" | "date" | "time" | "course" | "players";

/** What a column holds, by its header or, failing that, by the cell's class. */
function roleOf(header: string, cell: HtmlElement): Role | null {
  if (/player|golfer|names?\b|guests/.test(header)) return "players";
  if (/course/.test(header)) return "course";
  if (/ref|booking\s*(#|no|id|number)|confirmation|^#$/.test(header)) return "ref";
  if (/date|when|day/.test(header)) return "date";
  if (/time/.test(header)) return "time";
  if (header) return null;
  if (hasWord(cell, /^players?$/)) return "players";
  if (hasWord(cell, /^course$/)) return "course";
  if (hasWord(cell, /^(ref|reference|confirmation)$/)) return "ref";
  if (hasWord(cell, /^date$/)) return "date";
  if (hasWord(cell, /^time$/)) return "time";
  return null;
}

/**
 * The member's bookings, read by meaning: table rows whose columns are named by their headers
 * (or classes); players as a list, a comma-separated cell or a cell each. An explicit 'no
 * bookings' notice is the only way to get an empty list. A course name that matches no course
 * keeps the booking, with an id made from the name, and is reported.
 */
export function parseBookingsPage(html: string, options: PageReadOptions = {}): ClubBooking[] {
  const document = parseDocument(html);
  const rows = tableRows(document).filter((row) => row.cells.some((cell, i) => roleOf(row.headers[i], cell) === "date"));
  if (rows.length === 0) {
    if (EMPTY_NOTICE.test(pageText(document))) return [];
    throw pageNotUnderstood(PAGE, "booking rows or a 'no bookings' notice");
  }
  return rows.map((row, index) => readBooking(row, index, options));
}

function cellsWith(row: TableRow, role: Role): HtmlElement[] {
  return row.cells.filter((cell, i) => roleOf(row.headers[i], cell) === role);
}

function refOf(row: TableRow): string {
  const cell = cellsWith(row, "ref")[0];
  const fromCell = textOf(cell).replace(/^#\s*/, "");
  if (fromCell) return fromCell;
  const fromData = row.row.getAttribute("data-ref") ?? row.row.getAttribute("data-booking-id") ?? row.row.getAttribute("data-id");
  if (fromData?.trim()) return fromData.trim();
  for (const link of row.row.querySelectorAll("a[href]")) {
    const match = /\/bookings?\/([^/?#]+)/i.exec(link.getAttribute("href") ?? "");
    if (match) return decodeURIComponent(match[1]);
  }
  return "";
}

function readBooking(row: TableRow, index: number, options: PageReadOptions): ClubBooking {
  const ref = refOf(row);
  if (!ref) throw pageNotUnderstood(PAGE, `reference of booking ${index + 1}`);
  const dateText = textOf(cellsWith(row, "date")[0]);
  const date = readClubDate(dateText, options.numericDateOrder ?? null);
  if (!date) throw pageNotUnderstood(PAGE, `a readable date of booking ${ref} (got '${dateText}')`);
  const timeCell = cellsWith(row, "time")[0];
  const time = timeCell ? readClubTime(textOf(timeCell)) : readClubTime(dateText.replace(/\b\d{4}\b/, ""));
  if (!time) throw pageNotUnderstood(PAGE, `a readable time of booking ${ref}`);
  const courseName = textOf(cellsWith(row, "course")[0]);
  if (!courseName) throw pageNotUnderstood(PAGE, `course of booking ${ref}`);
  const course = courseIdOf(courseName, ref, options);
  const players = cellsWith(row, "players").flatMap((cell) => playersIn(cell, ref));
  if (players.length === 0) throw pageNotUnderstood(PAGE, `players of booking ${ref}`);
  return validateRecord(clubBookingSchema, { ref, date, time, course, courseName, players }, PAGE);
}

function courseIdOf(name: string, ref: string, options: PageReadOptions): string {
  const fallback = courseIdFromName(normaliseCourseName(name)) || courseIdFromName(name);
  if (!options.courses) return fallback;
  const course = matchCourse(name, options.courses);
  if (course) return course.id;
  options.report?.(`booking ${ref}: the course '${name}' matches no course name or alias`);
  return fallback;
}

type Player = { name: string; type: string; id: string };

function playersIn(cell: HtmlElement, ref: string): Player[] {
  const items = [...cell.querySelectorAll("li")];
  if (items.length > 0) return items.map((item) => readPlayerItem(item, ref));
  const text = textOf(cell);
  if (!text) return [];
  return splitOutsideBrackets(text).map((part) => readPlayerText(part, ref));
}

/** A list item with name/type/id parts marked by class, or written as text. */
function readPlayerItem(item: HtmlElement, ref: string): Player {
  const part = (word: RegExp) => [...item.querySelectorAll("*")].find((e) => tagOf(e) !== "li" && hasWord(e, word));
  const name = part(/^name$/);
  if (name) return { name: textOf(name), type: textOf(part(/^type$/)), id: textOf(part(/^(id|number|no)$/)) };
  return readPlayerText(textOf(item), ref);
}

/** 'Maria Santos (Member, SW-1001)' · 'Pat Lee (Guest)' · 'Pat Lee - Guest'. */
function readPlayerText(text: string, ref: string): Player {
  const bracket = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(text);
  if (bracket) {
    const [type = "", id = ""] = bracket[2].split(/\s*[,;/]\s*/);
    if (bracket[1].trim() && type.trim()) return { name: bracket[1].trim(), type: type.trim(), id: id.trim() };
  }
  const dashed = text.split(/\s+[-–—|]\s+/);
  if (dashed.length >= 2 && dashed[0] && dashed[1]) return { name: dashed[0], type: dashed[1], id: dashed[2] ?? "" };
  throw pageNotUnderstood(PAGE, `the type of player '${text}' in booking ${ref}`);
}

function splitOutsideBrackets(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if ((ch === "," || ch === ";") && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}
