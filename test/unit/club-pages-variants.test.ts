/**
 * The corpus of page variants: the same pages written the way different hand-made portals
 * write them. Each `<name>.html` has a `<name>.json` with the records it must read (`expect`,
 * plus `problems` it must report while reading on) or the typed error it must fail with.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { ClubError } from "../../src/club/errors.ts";
import { parseAdvisoriesPage } from "../../src/club/pages/advisories-page.ts";
import { parseBookingResultPage } from "../../src/club/pages/booking-result-page.ts";
import { parseBookingsPage } from "../../src/club/pages/bookings-page.ts";
import { parseLoginPage } from "../../src/club/pages/login-page.ts";
import { parseTeeSheetPage } from "../../src/club/pages/tee-sheet-page.ts";

const ROOT = `${import.meta.dir}/../fixtures/club/variants`;

/** The club's courses as an admin set them up: 'Championship' is an alias added for Legends. */
const COURSES = [
  { id: "masters", name: "Masters", aliases: [] },
  { id: "legends", name: "Legends", aliases: ["Championship"] },
];

interface Variant {
  options?: { numericDateOrder?: "dmy" | "mdy" };
  expect?: unknown;
  problems?: string[];
  error?: { kind: string; page: string; missing: string };
}

type Parser = (html: string, options?: object) => unknown;

const PARSERS: Record<string, Parser> = {
  "tee-sheet": parseTeeSheetPage as Parser,
  advisories: parseAdvisoriesPage as Parser,
  bookings: parseBookingsPage as Parser,
  login: parseLoginPage as Parser,
  "booking-result": parseBookingResultPage as Parser,
};

function variantsOf(kind: string): { name: string; html: string; spec: Variant }[] {
  return readdirSync(`${ROOT}/${kind}`)
    .filter((file) => file.endsWith(".html"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".html".length);
      return {
        name,
        html: require("node:fs").readFileSync(`${ROOT}/${kind}/${file}`, "utf8") as string,
        spec: JSON.parse(require("node:fs").readFileSync(`${ROOT}/${kind}/${name}.json`, "utf8")) as Variant,
      };
    });
}

for (const [kind, parse] of Object.entries(PARSERS)) {
  const variants = variantsOf(kind);

  describe(`${kind} variants`, () => {
    test("the corpus has several variants, and some that must fail", () => {
      expect(variants.length).toBeGreaterThanOrEqual(5);
      expect(variants.every((v) => (v.spec.expect === undefined) !== (v.spec.error === undefined))).toBe(true);
    });

    for (const { name, html, spec } of variants) {
      test(name, () => {
        const problems: string[] = [];
        const options = { courses: COURSES, ...spec.options, report: (problem: string) => problems.push(problem) };
        if (spec.error) {
          let thrown: unknown = null;
          try {
            parse(html, options);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(ClubError);
          const error = thrown as ClubError;
          expect({ kind: error.kind as string, page: error.page }).toEqual({ kind: spec.error.kind, page: spec.error.page });
          expect(error.missing ?? "").toContain(spec.error.missing);
          return;
        }
        expect(parse(html, options)).toEqual(spec.expect);
        for (const expected of spec.problems ?? []) expect(problems.some((p) => p.includes(expected))).toBe(true);
        if (!spec.problems) expect(problems).toEqual([]);
      });
    }
  });
}

describe("every parser on every other page", () => {
  const all = Object.keys(PARSERS).flatMap((kind) => variantsOf(kind).map((v) => ({ ...v, kind })));
  test("reads it or refuses it with a ClubError, never another failure", () => {
    const crashes: string[] = [];
    for (const [parserKind, parse] of Object.entries(PARSERS)) {
      for (const variant of all) {
        try {
          parse(variant.html, { courses: COURSES });
        } catch (error) {
          if (!(error instanceof ClubError)) crashes.push(`${parserKind} on ${variant.kind}/${variant.name}: ${String(error)}`);
        }
      }
    }
    expect(crashes).toEqual([]);
  });
});
