import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkTree, countLines, findImports, formatViolations, type Rule } from "../../scripts/check-imports.ts";

const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes a small tree of files into a fresh folder and checks it. */
function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "teebox-imports-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return checkTree(root);
}

/** The violations of one rule as "file → import" (or the file alone for the size rule). */
function found(files: Record<string, string>, rule: Rule): string[] {
  return check(files)
    .violations.filter((violation) => violation.rule === rule)
    .map((violation) => (violation.specifier ? `${violation.file} → ${violation.specifier}` : violation.file));
}

const lines = (count: number) => `${Array.from({ length: count }, (_, i) => `export const line${i} = ${i};`).join("\n")}\n`;

describe("the import rules", () => {
  test("domain code may import other domain code and packages", () => {
    const files = {
      "src/domain/rules.ts": 'import { z } from "zod";\nimport { day } from "./time.ts";\nexport const rule = z.string().parse(day);\n',
      "src/domain/time.ts": 'export const day = "Monday";\n',
    };
    expect(check(files).violations).toEqual([]);
  });

  test("domain code importing the app is reported, a type-only import too", () => {
    const files = {
      "src/domain/rules.ts": 'import type { Logger } from "../lib/logger.ts";\nexport const rule = (log: Logger) => log;\n',
      "src/lib/logger.ts": "export interface Logger { info(text: string): void }\n",
    };
    expect(found(files, "domain")).toEqual(["src/domain/rules.ts → ../lib/logger.ts"]);
  });

  test("a server feature may import its own files", () => {
    const files = {
      "src/features/alpha/alpha.service.ts": 'import { schema } from "./alpha.schemas.ts";\nexport const service = schema;\n',
      "src/features/alpha/alpha.schemas.ts": "export const schema = 1;\n",
    };
    expect(check(files).violations).toEqual([]);
  });

  test("a server feature importing another is reported", () => {
    const files = {
      "src/features/alpha/alpha.service.ts": "export const service = 1;\n",
      "src/features/beta/beta.service.ts": 'export { service } from "../alpha/alpha.service.ts";\n',
    };
    expect(found(files, "server-features")).toEqual(["src/features/beta/beta.service.ts → ../alpha/alpha.service.ts"]);
  });

  test("a web feature may import its own files and shared code", () => {
    const files = {
      "web/features/book/book-view.tsx": 'import { api } from "../../lib/api.ts";\nimport { step } from "./step.ts";\nexport const view = [api, step];\n',
      "web/features/book/step.ts": "export const step = 1;\n",
      "web/lib/api.ts": "export const api = 1;\n",
    };
    expect(check(files).violations).toEqual([]);
  });

  test("a web feature importing another is reported, a dynamic import too", () => {
    const files = {
      "web/features/book/book-view.tsx": 'export const load = () => import("../players/list.tsx");\n',
      "web/features/players/list.tsx": "export const list = 1;\n",
    };
    expect(found(files, "web-features")).toEqual(["web/features/book/book-view.tsx → ../players/list.tsx"]);
  });

  test("web may import domain code and feature schema modules", () => {
    const files = {
      "web/lib/types.ts":
        'import type { Rule } from "../../src/domain/rules.ts";\nimport type { View } from "../../src/features/alpha/alpha.schemas.ts";\nexport type Both = [Rule, View];\n',
      "src/domain/rules.ts": "export type Rule = string;\n",
      "src/features/alpha/alpha.schemas.ts": "export type View = number;\n",
    };
    expect(check(files).violations).toEqual([]);
  });

  test("web importing a service, or server code outside domain, is reported even for types alone", () => {
    const files = {
      "web/lib/types.ts":
        'import { type View } from "../../src/features/alpha/alpha.service.ts";\nimport type { Message } from "../../src/realtime/messages.ts";\nexport type Both = [View, Message];\n',
      "src/features/alpha/alpha.service.ts": "export type View = number;\n",
      "src/realtime/messages.ts": "export type Message = string;\n",
      // A schema module is one directly in a feature's folder, named *.schemas.ts.
      "web/lib/deep.ts": 'import type { X } from "../../src/features/alpha/inner/x.schemas.ts";\nexport type Y = X;\n',
      "src/features/alpha/inner/x.schemas.ts": "export type X = 1;\n",
    };
    expect(found(files, "web-to-server")).toEqual([
      "web/lib/deep.ts → ../../src/features/alpha/inner/x.schemas.ts",
      "web/lib/types.ts → ../../src/features/alpha/alpha.service.ts",
      "web/lib/types.ts → ../../src/realtime/messages.ts",
    ]);
  });

  test("imports that go one way are no cycle", () => {
    const files = {
      "src/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "src/b.ts": 'import { c } from "./c.ts";\nexport const b = c;\n',
      "src/c.ts": "export const c = 1;\n",
    };
    expect(check(files).violations).toEqual([]);
  });

  test("a cycle is reported with a path and every import on it, type-only imports included", () => {
    const files = {
      "src/deps.ts": 'import type { Engine } from "./jobs/engine.ts";\nexport interface Deps { engine: Engine }\n',
      "src/jobs/engine.ts": 'import type { Deps } from "../deps.ts";\nexport interface Engine { start(deps: Deps): void }\n',
      "src/main.ts": 'import type { Deps } from "./deps.ts";\nexport type Main = Deps;\n',
      "web/x.ts": 'import { x } from "./x.ts";\nexport const y = 1;\nexport { x };\n',
    };
    const cycles = check(files).violations.filter((violation) => violation.rule === "cycles");
    expect(cycles.map((cycle) => cycle.cycle)).toEqual([
      ["src/deps.ts", "src/jobs/engine.ts", "src/deps.ts"],
      ["web/x.ts", "web/x.ts"],
    ]);
    expect(cycles[0]!.edges!.map((edge) => `${edge.file} → ${edge.specifier} (${edge.kind})`)).toEqual([
      "src/deps.ts → ./jobs/engine.ts (type)",
      "src/jobs/engine.ts → ../deps.ts (type)",
    ]);
  });

  test("a file of 400 lines in jobs or features passes", () => {
    const files = {
      "src/jobs/engine.ts": lines(400),
      "src/features/alpha/alpha.service.ts": lines(400),
      "src/club/big.ts": lines(900),
    };
    expect(check(files).violations).toEqual([]);
  });

  test("a file over 400 lines in jobs or features is reported", () => {
    const files = {
      "src/jobs/release/engine.ts": lines(401),
      "src/features/alpha/alpha.service.ts": `${lines(399)}export const last = 1;\nexport const after = 2;`,
    };
    expect(found(files, "size")).toEqual(["src/features/alpha/alpha.service.ts", "src/jobs/release/engine.ts"]);
  });

  test("a relative import of a missing file is reported; a package is not", () => {
    const files = { "src/a.ts": 'import { z } from "zod";\nimport { b } from "./missing.ts";\nexport const a = [z, b];\n' };
    expect(found(files, "unresolved")).toEqual(["src/a.ts → ./missing.ts"]);
  });

  test("the report names every violation with its file and import", () => {
    const result = check({
      "src/domain/rules.ts": 'import "../lib/side.ts";\n',
      "src/lib/side.ts": "export {};\n",
    });
    expect(formatViolations(result)).toContain('src/domain/rules.ts imports "../lib/side.ts"');
  });
});

describe("the rules written down elsewhere, checked too", () => {
  test("a job importing a feature is reported", () => {
    const files = {
      "src/jobs/sync.ts": 'import { name } from "../features/bookings/names.ts";\nexport const sync = name;\n',
      "src/features/bookings/names.ts": "export const name = 1;\n",
    };
    expect(found(files, "jobs-to-features")).toEqual(["src/jobs/sync.ts → ../features/bookings/names.ts"]);
  });

  test("only src/lifecycle writes the state tables, by drizzle or by SQL; the retention pass may delete", () => {
    const files = {
      "src/lifecycle/requests.ts": "export const fail = (db: any) => db.update(bookingRequests).set({});\n",
      "src/features/bookings/edit.ts": "export const move = (db: any) => db.update( bookings ).set({});\n",
      "src/services/raw.ts": 'export const raw = (db: any) => db.run("UPDATE slot_watches SET status = 1");\n// db.insert(bookings) in a comment is no write\n',
      "src/jobs/retention.ts": "export const prune = (tx: any) => [tx.delete(requestAttempts), tx.update(bookings)];\n",
    };
    const writes = check(files)
      .violations.filter((v) => v.rule === "state-writers")
      .map((v) => `${v.file}:${v.line}`)
      .sort();
    expect(writes).toEqual(["src/features/bookings/edit.ts:1", "src/jobs/retention.ts:1", "src/services/raw.ts:1"]);
  });

  test("only the notifier hands messages to the hub, and only the hub publishes on the server", () => {
    const files = {
      "src/realtime/notifier.ts": "export const tell = (hub: any) => hub.toAll({});\n",
      "src/realtime/hub.ts": "export const send = (server: any) => server.publish('members', '');\n",
      "src/features/admin/admin-support.ts": "export const shout = (deps: any) => deps.hub.toUser(1, {});\n",
      "src/jobs/engine.ts": "export const leak = (server: any) => server.publish('members', '');\n",
    };
    expect(
      check(files)
        .violations.filter((v) => v.rule === "publishers")
        .map((v) => v.file),
    ).toEqual(["src/features/admin/admin-support.ts", "src/jobs/engine.ts"]);
  });

  test("a module that only re-exports another is reported; one that adds to it is not", () => {
    const files = {
      "src/lib/shim.ts": '/** Moved. */\nexport * from "./real.ts";\nexport { type Real } from "./real.ts";\n',
      "src/lib/real.ts": 'export type Real = 1;\nexport { other } from "./other.ts";\nexport const real = 1;\n',
      "src/lib/other.ts": "export const other = 1;\n",
    };
    expect(
      check(files)
        .violations.filter((v) => v.rule === "shims")
        .map((v) => v.file),
    ).toEqual(["src/lib/shim.ts"]);
  });

  test("a path named in a comment, a test, a script or a document, and a document's relative link, must exist; placeholders are not paths", () => {
    const files = {
      "src/lib/a.ts": "/** See src/lib/b.ts and src/lib/gone.ts, src/features/<group>/ and docs/decisions/NNN-title.md. */\nexport {};\n",
      "src/lib/b.ts": 'export const text = "src/lib/in-a-string.ts";\n',
      "test/unit/a.test.ts": "// Checks test/unit/missing.test.ts.\n",
      "docs/decisions/001-x.md": "# 001\nSee `scripts/nowhere.ts` and src/lib/a.ts.\n[Up](../../README.md), [gone](002-nothing.md#why), [a placeholder](…).\n",
      "README.md": "Read docs/decisions/001-x.md and docs/decisions/002.\n",
    };
    const named = check(files)
      .violations.filter((v) => v.rule === "named-paths")
      .map((v) => `${v.file}:${v.line} ${v.message}`);
    expect(named.sort()).toEqual([
      "README.md:1 names docs/decisions/002, which does not exist",
      "docs/decisions/001-x.md:2 names scripts/nowhere.ts, which does not exist",
      "docs/decisions/001-x.md:3 links 002-nothing.md#why, which does not exist",
      "src/lib/a.ts:1 names src/lib/gone.ts, which does not exist",
      "test/unit/a.test.ts:1 names test/unit/missing.test.ts, which does not exist",
    ]);
  });

  test("citing a document the repository does not have is reported, in comments and documents", () => {
    const files = {
      "src/lib/a.ts": '/** As spec §3 says (design.md). */\nexport const spec = "spec §3 in a string is no citation";\n',
      "web/styles/app.css": "/* Tabs fit (issue 17). */\n",
      "docs/decisions/001-x.md": "# 001\nThe spec's order, as issue 12 asked.\n",
    };
    const cited = check(files)
      .violations.filter((v) => v.rule === "outside-documents")
      .map((v) => `${v.file}:${v.line} ${v.message.split(":")[0]}`);
    expect(cited.sort()).toEqual([
      'docs/decisions/001-x.md:2 cites "The spec\'s"',
      'docs/decisions/001-x.md:2 cites "issue 12"',
      'src/lib/a.ts:1 cites "design.md"',
      'src/lib/a.ts:1 cites "spec §3"',
      'web/styles/app.css:1 cites "issue 17"',
    ]);
  });
});

describe("decision records", () => {
  const index = (rows: string) => `# Decisions\n\n| Record | Decision | Status | Date |\n|---|---|---|---|\n${rows}`;
  test("a record with its header, listed in the index with its status and date, passes", () => {
    const files = {
      "docs/decisions/001-one-thing.md": "# 001. One thing\n\n- Status: accepted; amended by 002\n- Date: 2026-11-24\n\n## Context\n",
      "docs/decisions/002-another.md": "# 002. Another\n\n- Status: superseded by 003\n- Date: 2026-11-25\n",
      "docs/decisions/README.md": index(
        "| [001](001-one-thing.md) | One thing. | accepted; amended by 002 | 2026-11-24 |\n| [002](002-another.md) | Another. | superseded by 003 | 2026-11-25 |\n",
      ),
    };
    expect(check(files).violations.filter((v) => v.rule === "records")).toEqual([]);
  });

  test("a record without its header, one missing from the index, one listed otherwise and a row of no record are reported", () => {
    const files = {
      "docs/decisions/001-old-style.md": "# 001 Old style\n\n## Status\nAccepted.\n",
      "docs/decisions/002-unlisted.md": "# 002. Unlisted\n\n- Status: accepted\n- Date: 2026-11-24\n",
      "docs/decisions/003-changed.md": "# 003. Changed\n\n- Status: accepted; amended by 004\n- Date: 2026-11-24\n",
      "docs/decisions/README.md": index(
        "| [001](001-old-style.md) | Old. | accepted | 2026-11-24 |\n| [003](003-changed.md) | Changed. | accepted | 2026-11-24 |\n| [009](009-gone.md) | Gone. | accepted | 2026-11-24 |\n",
      ),
    };
    const found = check(files)
      .violations.filter((v) => v.rule === "records")
      .map((v) => `${v.file}:${v.line} ${v.message.split(",")[0]}`);
    expect(found.sort()).toEqual([
      'docs/decisions/001-old-style.md:1 starts with "# 001 Old style"',
      'docs/decisions/001-old-style.md:3 has no "- Status: accepted" (or "superseded by NNN") on its third line',
      'docs/decisions/001-old-style.md:4 has no "- Date: YYYY-MM-DD" on its fourth line',
      "docs/decisions/002-unlisted.md:1 is not listed in docs/decisions/README.md",
      'docs/decisions/README.md:6 lists 003-changed.md as "accepted"',
      "docs/decisions/README.md:7 lists 009-gone.md",
    ]);
  });
});

describe("finding imports in source", () => {
  test("every form is found and type-only forms are told apart", () => {
    const source = [
      'import type { A } from "./a.ts";',
      'import { type B, type C } from "./b.ts";',
      'import D, { type E } from "./d.ts";',
      'import * as F from "./f.ts";',
      'import "./side.css";',
      'export { G } from "./g.ts";',
      'export type { H } from "./h.ts";',
      'export * as I from "./i.ts";',
      'const lazy = () => import("./lazy.tsx");',
      'type J = import("./j.ts").J;',
      "import {",
      "  K,",
      "  type L,",
      '} from "./k.ts";',
    ].join("\n");
    expect(findImports(source)).toEqual([
      { specifier: "./a.ts", form: "type" },
      { specifier: "./b.ts", form: "type" },
      { specifier: "./d.ts", form: "value" },
      { specifier: "./f.ts", form: "value" },
      { specifier: "./side.css", form: "value" },
      { specifier: "./g.ts", form: "value" },
      { specifier: "./h.ts", form: "type" },
      { specifier: "./i.ts", form: "value" },
      { specifier: "./lazy.tsx", form: "call" },
      { specifier: "./j.ts", form: "call" },
      { specifier: "./k.ts", form: "value" },
    ]);
  });

  test("imports in comments, strings, templates and regular expressions are not imports", () => {
    const source = [
      '// import { a } from "./comment.ts";',
      '/* import "./block.ts"; */',
      "const text = 'import x from \"./string.ts\"';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test has a template literal.
      'const template = `import y from "./template.ts" ${`import("./nested.ts")`}`;',
      'const pattern = /import z from "\\.\\/regex.ts"/;',
      'import { real } from "./real.ts";',
    ].join("\n");
    expect(findImports(source)).toEqual([{ specifier: "./real.ts", form: "value" }]);
  });

  test("lines are counted as an editor shows them", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
  });
});
