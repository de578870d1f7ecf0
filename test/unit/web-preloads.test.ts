/** Each page's index.html names the files that page needs before it can show anything. */
import { describe, expect, test } from "bun:test";
import { computeRoutePreloads, withPreloadLinks, type BuildMetafile } from "../../src/web-preloads.ts";

const out = (inputs: string[], imports: [string, string][] = [], entryPoint?: string) => ({
  inputs: Object.fromEntries(inputs.map((i) => [i, {}])),
  imports: imports.map(([path, kind]) => ({ path, kind })),
  ...(entryPoint ? { entryPoint } : {}),
});

// A small build: the entry chunk shares React with the pages; book imports a rules chunk and zod.
const METAFILE: BuildMetafile = {
  outputs: {
    "./chunk-entry.js": out(["web/main.tsx"], [["./chunk-react.js", "import-statement"], ["./chunk-book.js", "dynamic-import"]]),
    "./chunk-react.js": out(["node_modules/react/index.js"]),
    "./chunk-book.js": out(["web/pages/book-page.tsx"], [["./chunk-react.js", "import-statement"], ["./chunk-rules.js", "import-statement"]]),
    "./chunk-rules.js": out(["src/domain/booking-rules.ts"], [["./chunk-zod.js", "import-statement"]]),
    "./chunk-zod.js": out(["node_modules/zod/index.js"]),
    "./chunk-login.js": out(["/somewhere/else/web/pages/login-page.tsx"], [["./chunk-react.js", "import-statement"]]),
    "./chunk-layout.js": out(["web/layout/main-layout.tsx"], [["./chunk-react.js", "import-statement"]]),
    // A dynamic import's entry chunk may hold no code of its own, only re-export the chunk that has it.
    "./chunk-texts-entry.js": out([], [["./chunk-texts.js", "import-statement"]], "/somewhere/src/domain/ui-text/index.ts"),
    "./chunk-texts.js": out(["src/domain/ui-text/index.ts", "src/domain/ui-text/book.ts"]),
    "./chunk-live-schemas.js": out(["web/lib/live-data-schemas.ts"], [["./chunk-zod.js", "import-statement"]]),
    "./chunk-setup.js": out(["web/pages/setup-page.tsx"]),
    "./chunk-app.css": out(["web/styles/app.css"]),
  },
};

describe("route preloads", () => {
  const preloads = computeRoutePreloads(METAFILE, "/chunk-entry.js");

  test("a page inside the layout preloads its chunk with what it imports, the layout, the texts and the live data's schemas, never what the entry already loads", () => {
    expect(preloads["/book"]).toEqual(["/chunk-book.js", "/chunk-layout.js", "/chunk-live-schemas.js", "/chunk-rules.js", "/chunk-texts-entry.js", "/chunk-texts.js", "/chunk-zod.js"]);
  });

  test("/login needs only its own chunk (its texts are in the first one); /setup no layout", () => {
    expect(preloads["/login"]).toEqual(["/chunk-login.js"]);
    expect(preloads["/setup"]).toEqual(["/chunk-setup.js", "/chunk-texts-entry.js", "/chunk-texts.js"]);
  });

  test("a page the build does not have preloads only the shared pieces", () => {
    expect(preloads["/players"]).toEqual(["/chunk-layout.js", "/chunk-live-schemas.js", "/chunk-texts-entry.js", "/chunk-texts.js", "/chunk-zod.js"]);
  });

  test("links go in the head", () => {
    const html = withPreloadLinks("<html><head><title>x</title></head><body></body></html>", ["/chunk-a.js"]);
    expect(html).toBe(
      '<html><head><title>x</title><link rel="preload" as="fetch" crossorigin="anonymous" href="/v1/auth/status" /><link rel="modulepreload" crossorigin href="/chunk-a.js" /></head><body></body></html>',
    );
  });
});
