import { describe, expect, test } from "bun:test";
import { escapeText, fixedOffsetTimezone, foldLine, localStamp, raw, text, utcStamp, writeIcal } from "../../src/lib/ical.ts";
import { contentLines, eventsOf, IcalError, instantOf, parseIcal, propertyValue } from "../helpers/ical-parser.ts";

const octets = (s: string) => new TextEncoder().encode(s).length;

describe("the iCalendar writer", () => {
  test("TEXT values escape backslashes, semicolons, commas and every kind of line break", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf\rg")).toBe("a\\\\b\\;c\\,d\\ne\\nf\\ng");
  });

  test("long lines fold at 75 octets, never inside a UTF-8 character, and unfold to the same line", () => {
    const line = `DESCRIPTION:${"Piñero ⛳ golf, ".repeat(20)}`;
    const folded = foldLine(line);
    expect(folded.length).toBeGreaterThan(3);
    for (const part of folded) expect(octets(part)).toBeLessThanOrEqual(75);
    expect(folded.slice(1).every((part) => part.startsWith(" "))).toBe(true);
    expect(folded.map((part, i) => (i === 0 ? part : part.slice(1))).join("")).toBe(line);
    // The first line is filled up to the limit, not broken early.
    expect(octets(folded[0])).toBeGreaterThanOrEqual(72);
    expect(foldLine("SUMMARY:short")).toEqual(["SUMMARY:short"]);
    const exact = `X:${"a".repeat(73)}`;
    expect(foldLine(exact)).toEqual([exact]);
    expect(foldLine(`${exact}b`)).toEqual([exact, " b"]);
  });

  test("a calendar is CRLF-ended, nested, and reads back with the strict parser", () => {
    const summary = "Golf; with Juan, Ana\\Tan\nand a very long line ".repeat(4);
    const out = writeIcal({
      name: "VCALENDAR",
      properties: [raw("PRODID", "-//Teebox//Test//EN"), raw("VERSION", "2.0")],
      components: [
        fixedOffsetTimezone("Asia/Manila", "+0800", "PHT"),
        {
          name: "VEVENT",
          properties: [
            text("UID", "booking-SW,1;x@teebox"),
            raw("DTSTAMP", utcStamp(Date.UTC(2026, 10, 22, 1))),
            raw("DTSTART", localStamp("2026-11-30", "06:04"), { TZID: "Asia/Manila" }),
            text("SUMMARY", summary),
          ],
        },
      ],
    });
    expect(out.endsWith("\r\n")).toBe(true);
    expect(out.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const calendar = parseIcal(out);
    const [event] = eventsOf(calendar);
    expect(propertyValue(event, "SUMMARY")).toBe(summary);
    expect(propertyValue(event, "UID")).toBe("booking-SW,1;x@teebox");
    expect(new Date(instantOf(calendar, event, "DTSTART")).toISOString()).toBe("2026-11-29T22:04:00.000Z");
    expect(propertyValue(event, "DTSTAMP")).toBe("20261122T010000Z");
  });
});

describe("the strict test parser refuses what a lenient one lets through", () => {
  const good = ["BEGIN:VCALENDAR", "PRODID:x", "VERSION:2.0", "END:VCALENDAR", ""].join("\r\n");
  test.each([
    ["bare LF line ends", good.replace(/\r\n/g, "\n")],
    ["a line over 75 octets", good.replace("PRODID:x", `PRODID:${"x".repeat(80)}`)],
    ["END out of order", ["BEGIN:VCALENDAR", "PRODID:x", "VERSION:2.0", "BEGIN:VEVENT", "END:VCALENDAR", "END:VEVENT", ""].join("\r\n")],
    ["no PRODID", good.replace("PRODID:x\r\n", "")],
    ["an unescaped comma in TEXT", good.replace("VERSION:2.0", "VERSION:2.0\r\nX-WR-CALNAME:a,b")],
    ["a VEVENT without UID", good.replace("END:VCALENDAR", "BEGIN:VEVENT\r\nDTSTAMP:20261122T010000Z\r\nDTSTART:20261122T010000Z\r\nEND:VEVENT\r\nEND:VCALENDAR")],
    [
      "a TZID with no VTIMEZONE",
      good.replace("END:VCALENDAR", "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261122T010000Z\r\nDTSTART;TZID=Asia/Manila:20261122T010000\r\nEND:VEVENT\r\nEND:VCALENDAR"),
    ],
  ])("%s", (_, text) => {
    expect(() => parseIcal(text)).toThrow(IcalError);
  });

  test("a well-formed calendar passes and folded lines unfold", () => {
    expect(parseIcal(good).name).toBe("VCALENDAR");
    expect(contentLines("A:1\r\n 2\r\n\t3\r\n")).toEqual(["A:123"]);
  });
});
