/**
 * A strict iCalendar (RFC 5545) reader for tests, written because no iCalendar parser package is
 * installed. It refuses what a lenient reader would let through: a line not ended by CRLF, a line
 * over 75 octets, a component ended out of order, a property without a colon, a TEXT value with
 * an unescaped comma or semicolon or an unknown escape, a missing required property, a TZID with
 * no VTIMEZONE, an unreadable DATE-TIME.
 */

export interface Property {
  name: string;
  params: Record<string, string>;
  /** The value as written (escapes kept). */
  raw: string;
}

export interface Component {
  name: string;
  properties: Property[];
  components: Component[];
}

export class IcalError extends Error {}

const TEXT_PROPERTIES = new Set(["SUMMARY", "DESCRIPTION", "LOCATION", "UID", "X-WR-CALNAME", "TZNAME", "COMMENT"]);

const REQUIRED: Record<string, string[]> = {
  VCALENDAR: ["PRODID", "VERSION"],
  VEVENT: ["UID", "DTSTAMP", "DTSTART"],
  VTIMEZONE: ["TZID"],
  STANDARD: ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"],
  DAYLIGHT: ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"],
};

/** The content lines, unfolded, after checking line ends and line lengths. */
export function contentLines(text: string): string[] {
  if (!text.endsWith("\r\n")) throw new IcalError("the last line is not ended by CRLF");
  const physical = text.slice(0, -2).split("\r\n");
  const encoder = new TextEncoder();
  for (const [i, line] of physical.entries()) {
    if (/[\r\n]/.test(line)) throw new IcalError(`line ${i + 1} holds a bare CR or LF`);
    const octets = encoder.encode(line).length;
    if (octets > 75) throw new IcalError(`line ${i + 1} is ${octets} octets long`);
    if (line.length === 0) throw new IcalError(`line ${i + 1} is empty`);
  }
  const lines: string[] = [];
  for (const line of physical) {
    if (line.startsWith(" ") || line.startsWith("\t")) {
      if (lines.length === 0) throw new IcalError("the first line is a continuation");
      lines[lines.length - 1] += line.slice(1);
    } else lines.push(line);
  }
  return lines;
}

function parseProperty(line: string): Property {
  // The name and parameters end at the first colon outside a quoted parameter value.
  let inQuote = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') inQuote = !inQuote;
    else if (c === ":" && !inQuote) {
      colon = i;
      break;
    }
  }
  if (colon < 0) throw new IcalError(`no colon in "${line}"`);
  const head = line.slice(0, colon);
  const raw = line.slice(colon + 1);
  const [name, ...paramParts] = head.match(/(?:[^;"]|"[^"]*")+/g) ?? [];
  if (!name || !/^[A-Z0-9-]+$/.test(name)) throw new IcalError(`bad property name in "${line}"`);
  const params: Record<string, string> = {};
  for (const part of paramParts) {
    const eq = part.indexOf("=");
    if (eq < 1) throw new IcalError(`bad parameter "${part}"`);
    params[part.slice(0, eq)] = part.slice(eq + 1).replace(/^"(.*)"$/, "$1");
  }
  if (TEXT_PROPERTIES.has(name)) checkText(name, raw);
  return { name, params, raw };
}

function checkText(name: string, raw: string): void {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\") {
      const next = raw[i + 1];
      if (next === undefined || !"\\;,nN".includes(next)) throw new IcalError(`${name}: unknown escape "\\${next ?? ""}"`);
      i++;
    } else if (c === "," || c === ";") throw new IcalError(`${name}: unescaped "${c}"`);
  }
}

/** A TEXT value with its escapes undone. */
export function unescapeText(raw: string): string {
  return raw.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

/** The whole stream: exactly one VCALENDAR, properly nested, with the required properties. */
export function parseIcal(text: string): Component {
  const stack: Component[] = [];
  let root: Component | null = null;
  for (const line of contentLines(text)) {
    const property = parseProperty(line);
    if (property.name === "BEGIN") {
      const component: Component = { name: property.raw, properties: [], components: [] };
      if (stack.length === 0) {
        if (root) throw new IcalError("more than one top-level component");
        if (component.name !== "VCALENDAR") throw new IcalError(`top-level ${component.name}`);
        root = component;
      } else stack[stack.length - 1].components.push(component);
      stack.push(component);
    } else if (property.name === "END") {
      const open = stack.pop();
      if (!open || open.name !== property.raw) throw new IcalError(`END:${property.raw} closes ${open?.name ?? "nothing"}`);
      for (const required of REQUIRED[open.name] ?? []) {
        if (!open.properties.some((p) => p.name === required)) throw new IcalError(`${open.name} has no ${required}`);
      }
    } else {
      if (stack.length === 0) throw new IcalError(`${property.name} outside any component`);
      stack[stack.length - 1].properties.push(property);
    }
  }
  if (stack.length > 0) throw new IcalError(`${stack[stack.length - 1].name} is never ended`);
  if (!root) throw new IcalError("no VCALENDAR");
  const version = root.properties.find((p) => p.name === "VERSION");
  if (version?.raw !== "2.0") throw new IcalError(`VERSION is ${version?.raw}`);
  const tzids = new Set(root.components.filter((c) => c.name === "VTIMEZONE").map((c) => propertyValue(c, "TZID")));
  for (const event of root.components.filter((c) => c.name === "VEVENT")) {
    for (const p of event.properties) if (p.params.TZID && !tzids.has(p.params.TZID)) throw new IcalError(`TZID ${p.params.TZID} has no VTIMEZONE`);
    if (event.properties.some((p) => p.name === "DTEND") && event.properties.some((p) => p.name === "DURATION")) throw new IcalError("both DTEND and DURATION");
  }
  return root;
}

export function propertyValue(component: Component, name: string): string {
  const property = component.properties.find((p) => p.name === name);
  if (!property) throw new IcalError(`${component.name} has no ${name}`);
  return TEXT_PROPERTIES.has(name) ? unescapeText(property.raw) : property.raw;
}

export function eventsOf(calendar: Component): Component[] {
  return calendar.components.filter((c) => c.name === "VEVENT");
}

/** "+0800" → minutes east of UTC. */
function offsetMinutes(offset: string): number {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(offset);
  if (!m) throw new IcalError(`bad UTC offset ${offset}`);
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * A DATE-TIME property as an instant: UTC ("Z"), or local to its TZID's VTIMEZONE (which must have
 * one fixed offset: a single STANDARD observance, no DAYLIGHT), never floating.
 */
export function instantOf(calendar: Component, event: Component, name: string): number {
  const property = event.properties.find((p) => p.name === name);
  if (!property) throw new IcalError(`${event.name} has no ${name}`);
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/.exec(property.raw);
  if (!m) throw new IcalError(`${name} is not a DATE-TIME: ${property.raw}`);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (m[7] === "Z") {
    if (property.params.TZID) throw new IcalError(`${name} is UTC and has a TZID`);
    return wall;
  }
  const tzid = property.params.TZID;
  if (!tzid) throw new IcalError(`${name} is a floating time`);
  const zone = calendar.components.find((c) => c.name === "VTIMEZONE" && propertyValue(c, "TZID") === tzid);
  if (!zone) throw new IcalError(`no VTIMEZONE ${tzid}`);
  if (zone.components.some((c) => c.name === "DAYLIGHT") || zone.components.length !== 1) throw new IcalError(`${tzid} is not one fixed offset`);
  return wall - offsetMinutes(propertyValue(zone.components[0], "TZOFFSETTO")) * 60_000;
}
