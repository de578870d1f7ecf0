/** Each page's index.html names the files that page needs before it can show anything. */
import { describe, expect, test } from "bun:test";
import { computeRoutePreloads, withPreloadLinks, type BuildMetafile } from "../../src/web-preloads.ts";

const out = (inputs: string[], imports: [string, string][] = [], entryPoint?: string) => ({
  inputs: Object.fromEntries(inputs.map((i) => [i, {}])),
  imports: imports.map(([path, kind]) => ({ path, kind })),
  ...(entryPoint ? { entryPoint } : {}),
});

// A small build: the entry chunk has React and the login page; the member area's entry chunk only
// re-exports the chunk with its code, which the admin page's chunk imports too.
const METAFILE: BuildMetafile = {
  outputs: {
    "./chunk-entry.js": out(
      ["web/main.tsx", "web/pages/login-page.tsx", "node_modules/react/index.js"],
      [
        ["./chunk-area.js", "dynamic-import"],
        ["./chunk-admin.js", "dynamic-import"],
      ],
    ),
    "./chunk-area.js": out([], [["./chunk-member.js", "import-statement"]], "/somewhere/web/pages/member-area.ts"),
    "./chunk-member.js": out(
      ["web/pages/member-area.ts", "web/pages/book-page.tsx", "web/layout/main-layout.tsx", "src/domain/ui-text/index.ts"],
      [
        ["./chunk-entry.js", "import-statement"],
        ["./chunk-zod.js", "import-statement"],
      ],
    ),
    "./chunk-zod.js": out(["node_modules/zod/index.js"]),
    "./chunk-admin.js": out(
      ["web/pages/admin-page.tsx"],
      [
        ["./chunk-member.js", "import-statement"],
        ["./chunk-entry.js", "import-statement"],
      ],
      "web/pages/admin-page.tsx",
    ),
    "./chunk-app.css": out(["web/styles/app.css"]),
  },
};

describe("route preloads", () => {
  const preloads = computeRoutePreloads(METAFILE, "/chunk-entry.js");

  test("a member page preloads the member area's entry chunk with what it imports, never what the first chunk already loads", () => {
    expect(preloads["/book"]).toEqual(["/chunk-area.js", "/chunk-member.js", "/chunk-zod.js"]);
    expect(preloads["/setup"]).toEqual(["/chunk-area.js", "/chunk-member.js", "/chunk-zod.js"]);
  });

  test("/login needs nothing more than the first chunk; /admin its own chunk on top of the member area", () => {
    expect(preloads["/login"]).toEqual([]);
    expect(preloads["/admin"]).toEqual(["/chunk-admin.js", "/chunk-area.js", "/chunk-member.js", "/chunk-zod.js"]);
  });

  test("links go in the head", () => {
    const html = withPreloadLinks("<html><head><title>x</title></head><body></body></html>", ["/chunk-a.js"]);
    expect(html).toBe(
      '<html><head><title>x</title><link rel="preload" as="fetch" crossorigin="anonymous" href="/v1/auth/status" /><link rel="modulepreload" crossorigin href="/chunk-a.js" /></head><body></body></html>',
    );
  });
});
