/**
 * A small iCalendar (RFC 5545) writer: TEXT values escaped (§3.3.11), content lines folded at 75
 * octets without splitting a UTF-8 character (§3.1), CRLF line ends. Only what the calendar feed
 * needs: a VCALENDAR with one fixed-offset VTIMEZONE and VEVENTs.
 */

/** Backslash, semicolon, comma and line breaks escaped, as a TEXT value needs. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

const MAX_OCTETS = 75;
const encoder = new TextEncoder();

/** One content line folded into lines of at most 75 octets; continuation lines start with a space. */
export function foldLine(line: string): string[] {
  const lines: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines;
}

/** A parameter value: quoted when it holds a character that would end it (RFC 5545 §3.2). */
function paramValue(value: string): string {
  const clean = value.replace(/["\r\n]/g, "");
  return /[;:,]/.test(clean) ? `"${clean}"` : clean;
}

export interface IcalProperty {
  name: string;
  /** The value as written (already escaped for TEXT, see `text`). */
  value: string;
  params?: Record<string, string>;
}

export const text = (name: string, value: string): IcalProperty => ({ name, value: escapeText(value) });
export const raw = (name: string, value: string, params?: Record<string, string>): IcalProperty => ({ name, value, params });

/** 20261122T010000Z */
export function utcStamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** A local date and time (ISO date, HH:mm) as a DATE-TIME of a named zone: 20261130T060400. */
export function localStamp(isoDate: string, hhmm: string): string {
  return `${isoDate.replace(/-/g, "")}T${hhmm.replace(":", "")}00`;
}

export interface IcalComponent {
  name: string;
  properties: IcalProperty[];
  components?: IcalComponent[];
}

function contentLines(component: IcalComponent): string[] {
  const lines = [`BEGIN:${component.name}`];
  for (const p of component.properties) {
    const params = Object.entries(p.params ?? {})
      .map(([k, v]) => `;${k}=${paramValue(v)}`)
      .join("");
    lines.push(`${p.name}${params}:${p.value}`);
  }
  for (const child of component.components ?? []) lines.push(...contentLines(child));
  lines.push(`END:${component.name}`);
  return lines;
}

/** The whole object as text: folded lines, each ended by CRLF. */
export function writeIcal(calendar: IcalComponent): string {
  return contentLines(calendar)
    .flatMap(foldLine)
    .map((line) => `${line}\r\n`)
    .join("");
}

/**
 * A VTIMEZONE for a zone with one fixed offset and no daylight saving (Asia/Manila, UTC+8 since
 * 1978): a single STANDARD observance.
 */
export function fixedOffsetTimezone(tzid: string, offset: string, abbreviation: string): IcalComponent {
  return {
    name: "VTIMEZONE",
    properties: [raw("TZID", tzid)],
    components: [
      {
        name: "STANDARD",
        properties: [raw("DTSTART", "19700101T000000"), raw("TZOFFSETFROM", offset), raw("TZOFFSETTO", offset), raw("TZNAME", escapeText(abbreviation))],
      },
    ],
  };
}
