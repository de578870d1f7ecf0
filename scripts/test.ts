/**
 * Runs the whole test suite (`npm test`, what CI runs). First the guard rails, whatever suites are
 * asked for: the type check (tsc --noEmit), the import rules (scripts/check-imports.ts: layers,
 * features, cycles, file sizes and the rules of decision 173) and the linter (Biome, decision 171),
 * each counting as one failure when it finds anything. Then the server-side tests and the component
 * tests each in their own process (happy-dom's globals would break API tests), both in the machine's
 * zone and in America/New_York (Manila dates must not depend on it), the API and jobs tests once more
 * on drizzle's libSQL driver, the in-process ones once more with the calendar 400 days on, then the
 * browser journeys in Chromium.
 * Ends with one line 'N passed, N failed'. Pass suite names to run only those: unit libsql web later
 * later-web e2e load;
 * 'guards' runs the guard rails alone; 'fast' (`npm run test:fast`, the inner loop) runs the guards,
 * then the unit, API and component tests once, in America/New_York.
 */
// (A module, so top-level await is allowed.)
export {};

interface Suite {
  name: string;
  args: string[];
  zones: (string | undefined)[];
  env?: Record<string, string>;
}

/** The tests that start Teebox as a child process: they run on its file database, whatever the pass. */
const startingProcesses = ["crash", "series-crash", "one-engine", "demo-release"].map((name) => `--path-ignore-patterns=**/${name}.test.ts`);
/** With them, the tests whose thread or child process reads the machine's real date against the test's. */
const readingTheRealDate = [...startingProcesses, ...["wave-sender", "sim-clock", "club-faults"].map((name) => `--path-ignore-patterns=**/${name}.test.ts`)];

const suites: Suite[] = [
  // Default time limits of a test or hook (a test that sets its own keeps it): generous enough for a
  // busy 2-core machine, since a test waits for what it checks, never for a fixed time.
  { name: "unit", args: ["--timeout", "20000", "test/unit", "test/api", "test/club", "test/jobs"], zones: [undefined, "America/New_York"] },
  // The API and jobs tests (and the club check's route) again on drizzle's libSQL driver, the path a
  // libSQL server takes (the native client on a local file: test/helpers/test-database.ts); the
  // other unit and club tests use no database. The tests that start Teebox as a
  // process run on its file database whatever the pass, so they are not run twice. The zone is
  // not what this pass tries: once is enough.
  {
    name: "libsql",
    args: ["--timeout", "20000", ...startingProcesses, "test/api", "test/jobs", "test/club/club-check-entry.test.ts"],
    zones: ["America/New_York"],
    env: { TEEBOX_TEST_DB: "libsql" },
  },
  { name: "web", args: ["--timeout", "20000", "--preload", "./test/helpers/dom.ts", "test/web"], zones: [undefined, "America/New_York"] },
  // The in-process tests again with the machine's calendar 400 days on (test/helpers/a-year-on.ts):
  // a test that reads the machine's date against a club fixed in time fails here on the day it is
  // written, not weeks later in CI. A thread or a child process keeps the real date, so the tests
  // that read it there are left out (a new one joins readingTheRealDate).
  {
    name: "later",
    args: ["--timeout", "20000", "--preload", "./test/helpers/a-year-on.ts", ...readingTheRealDate, "test/unit", "test/api", "test/club", "test/jobs"],
    zones: ["America/New_York"],
  },
  {
    name: "later-web",
    args: ["--timeout", "20000", "--preload", "./test/helpers/dom.ts", "--preload", "./test/helpers/a-year-on.ts", "test/web"],
    zones: ["America/New_York"],
  },
  // Each browser file starts its own Teebox and Chromium before its first test.
  { name: "e2e", args: ["--timeout", "60000", "test/e2e"], zones: ["America/New_York"] },
  // A minute of traffic from 300 sockets while a release fires: once is enough.
  { name: "load", args: ["test/load"], zones: ["America/New_York"] },
];

/** The inner loop: the pure rules, the routes and the components, once, in the zone that is not Manila's or UTC. */
const fastSuites: Suite[] = [
  { name: "unit and api", args: ["--timeout", "20000", "test/unit", "test/api"], zones: ["America/New_York"] },
  { name: "web", args: ["--timeout", "20000", "--preload", "./test/helpers/dom.ts", "test/web"], zones: ["America/New_York"] },
];

const argv = process.argv.slice(2);
const isFast = argv.includes("fast");
const only = isFast ? [] : argv;
const chosenSuites = isFast ? fastSuites : suites;
let passed = 0;
let failed = 0;
const failures: string[] = [];
/** Each failed test with the error bun printed above it, repeated at the end so a long log's tail names it. */
const failedTests: string[] = [];

const root = new URL("..", import.meta.url).pathname;

// Guard rails: a boundary crossed or a type error fails the run, so CI reports it even when every
// test passes; the tests still run, so one run shows everything. A pass is not counted as a test.
const guards: { name: string; command: string[] }[] = [
  { name: "types", command: ["node_modules/.bin/tsc", "--noEmit", "-p", "tsconfig.json"] },
  { name: "imports", command: [process.execPath, "scripts/check-imports.ts"] },
  { name: "lint", command: ["node_modules/.bin/biome", "lint", "--error-on-warnings", "."] },
  // The tree is formatted (decision 171): a file written another way fails the guards.
  { name: "format", command: ["node_modules/.bin/biome", "format", "."] },
];

for (const guard of guards) {
  console.log(`\n=== ${guard.name}`);
  const started = performance.now();
  let code: number;
  try {
    const proc = Bun.spawn([...guard.command], { cwd: root, stdout: "inherit", stderr: "inherit" });
    code = await proc.exited;
  } catch (error) {
    // Not installed (no node_modules/.bin/tsc or biome): a failure of the run, not a crash of the runner.
    console.log(String(error));
    code = 127;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) console.log(`${guard.name}: ok (${seconds} s)`);
  else {
    console.log(`${guard.name}: failed with ${code} (${seconds} s)`);
    failed += 1;
    failures.push(`${guard.name}: exited with ${code}`);
  }
}

for (const suite of chosenSuites) {
  if (only.length > 0 && !only.includes(suite.name)) continue;
  for (const zone of suite.zones) {
    const label = `${suite.name}${zone ? ` (TZ=${zone})` : ""}`;
    const started = performance.now();
    console.log(`\n=== ${label}`);
    const proc = Bun.spawn([process.execPath, "test", ...suite.args], {
      env: { ...process.env, ...suite.env, ...(zone ? { TZ: zone } : {}) },
      stdout: "inherit",
      stderr: "pipe",
    });
    // bun test writes its report to stderr: echo it and read the totals.
    let report = "";
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      const text = decoder.decode(chunk);
      report += text;
      process.stderr.write(text);
    }
    const code = await proc.exited;
    const pass = Number(/^\s*(\d+) pass$/m.exec(report)?.[1] ?? 0);
    const fail = Number(/^\s*(\d+) fail$/m.exec(report)?.[1] ?? 0);
    passed += pass;
    failed += fail;
    console.log(`${label}: ${pass} passed, ${fail} failed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (code !== 0 && fail === 0) {
      failed += 1;
      failures.push(`${label}: exited with ${code}`);
    } else if (fail > 0) failures.push(`${label}: ${fail} failed`);
    failedTests.push(...failedTestsIn(report).map((test) => `${label}:\n${test}`));
  }
}

/** The '(fail)' lines of a bun test report, each with the lines bun printed for it (at most 12). */
function failedTestsIn(report: string): string[] {
  const lines = report.split("\n");
  const found: string[] = [];
  lines.forEach((line, index) => {
    if (!line.startsWith("(fail)")) return;
    let start = index;
    while (start > 0 && index - start < 12 && !/^\((pass|fail|skip|todo)\)/.test(lines[start - 1] ?? "")) start -= 1;
    found.push(lines.slice(start, index + 1).join("\n"));
  });
  return found;
}

if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.join("\n\n")}`);
if (failures.length > 0) console.log(`\nFailed: ${failures.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
const guardsOnly = only.length > 0 && only.every((name) => name === "guards");
process.exit(failed > 0 || (passed === 0 && !guardsOnly) ? 1 : 0);
