/**
 * Lighthouse on every member page with its mobile profile (simulated slow 4G, a 4x slower CPU),
 * against a local Teebox with the demo club, signed in as a member (the session cookie goes with
 * every request). Prints each page's performance, accessibility and best-practices scores with
 * LCP, TBT, FCP and the JavaScript loaded but unused, twice: on a first visit (a fresh browser,
 * where the one-time welcome overlay shows) and as a returning member (the overlay seen, the app
 * visited once before, as on a phone that installed it: scripts/bench/lighthouse-returning.mjs).
 *
 * Lighthouse is not a dependency of Teebox: the benchmark installs it on first use into a cache
 * folder outside the project, so `npm install` stays lean.
 *
 *   bun scripts/bench/lighthouse.ts [runs=3] [page...]
 *
 * Naming pages (e.g. `/book /bookings`) audits only those. With LIGHTHOUSE_REPORTS=<folder> every
 * report is also written there as JSON, to read its audits (long tasks, bootup time, LCP element).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signIn, startTeebox } from "./support.ts";

const LIGHTHOUSE_VERSION = "13.5.0";
const CHROMIUM = "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const PAGES = [
  { path: "/login", isSignedIn: false },
  { path: "/", isSignedIn: true },
  { path: "/book", isSignedIn: true },
  { path: "/bookings", isSignedIn: true },
  { path: "/players", isSignedIn: true },
  { path: "/profile", isSignedIn: true },
];
const runs = Number(process.argv[2] ?? 3);
const onlyPages = process.argv.slice(3);
const reportsDir = process.env.LIGHTHOUSE_REPORTS;
if (reportsDir) mkdirSync(reportsDir, { recursive: true });

function keepReport(report: LighthouseReport, visit: string, path: string, run: number): void {
  if (!reportsDir) return;
  const name = `${visit.replace(/\W+/g, "-")}${path === "/" ? "-home" : path.replace(/\W+/g, "-")}-${run + 1}.json`;
  writeFileSync(join(reportsDir, name), JSON.stringify(report));
}

interface LighthouseReport {
  /** Set when Lighthouse could not audit the page (its scores are then null). */
  runtimeError?: { code: string; message?: string };
  categories: Record<"performance" | "accessibility" | "best-practices", { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { overallSavingsBytes?: number } }>;
}

const LIGHTHOUSE_DIR = join(tmpdir(), `teebox-lighthouse-${LIGHTHOUSE_VERSION}`);

function installLighthouse(): string {
  const dir = LIGHTHOUSE_DIR;
  const cli = join(dir, "node_modules", "lighthouse", "cli", "index.js");
  if (existsSync(cli)) return cli;
  mkdirSync(dir, { recursive: true });
  console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${dir} (once)`);
  const result = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--prefix", dir, `lighthouse@${LIGHTHOUSE_VERSION}`], { stdout: "ignore", stderr: "inherit" });
  if (result.exitCode !== 0 || !existsSync(cli)) throw new Error("lighthouse could not be installed");
  return cli;
}

async function auditReturning(url: string, cookie: string): Promise<LighthouseReport> {
  const proc = Bun.spawn(["node", join(import.meta.dir, "lighthouse-returning.mjs"), LIGHTHOUSE_DIR, CHROMIUM, url, cookie], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return readReport(out, err, code, url);
}

async function audit(cli: string, url: string, cookie: string | null): Promise<LighthouseReport> {
  const args = [
    "node",
    cli,
    url,
    "--quiet",
    "--output=json",
    "--output-path=stdout",
    "--only-categories=performance,accessibility,best-practices",
    "--form-factor=mobile",
    "--throttling-method=simulate",
    `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  const proc = Bun.spawn(args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return readReport(out, err, code, url);
}

/**
 * The report, or the failure with its reason: Lighthouse may exit with an error and no report, or
 * write a report for a page it could not audit (a runtime error such as NO_NAVSTART, null scores).
 */
function readReport(out: string, err: string, code: number, url: string): LighthouseReport {
  let report: LighthouseReport | null = null;
  try {
    report = JSON.parse(out) as LighthouseReport;
  } catch {
    // no report: the exit code and stderr say why
  }
  const runtime = report?.runtimeError && report.runtimeError.code !== "NO_ERROR" ? `${report.runtimeError.code} ${report.runtimeError.message ?? ""}` : null;
  if (code !== 0 || !report || runtime) throw new Error(`lighthouse failed on ${url}: ${runtime ?? err.slice(-500)}`);
  return report;
}

/** Audits that were tried again, and audits lost, printed after the tables. */
const retries: string[] = [];

/**
 * One audit, tried once more when Chromium's trace came back without its navigation start
 * (NO_NAVSTART, a flake of the trace, not of the page); any other failure, or a second one, loses
 * only this run of this page, never the other pages' figures.
 */
async function auditWithRetry(label: string, run: () => Promise<LighthouseReport>): Promise<LighthouseReport | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const isTraceFlake = message.includes("NO_NAVSTART");
      if (isTraceFlake && attempt === 1) {
        retries.push(`${label}: NO_NAVSTART, audited again`);
        continue;
      }
      retries.push(`${label}: lost (${message.split("\n")[0].slice(0, 200)})`);
      return null;
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const score = (report: LighthouseReport, key: keyof LighthouseReport["categories"]) => Math.round((report.categories[key].score ?? 0) * 100);

function printRow(path: string, reports: LighthouseReport[]): void {
  // The run with the median performance score speaks for the page, its metrics with it.
  const byPerf = [...reports].sort((a, b) => score(a, "performance") - score(b, "performance"));
  const chosen = byPerf[Math.floor(byPerf.length / 2)];
  const metric = (id: string) => Math.round(chosen.audits[id]?.numericValue ?? Number.NaN);
  const unusedKb = Math.round((chosen.audits["unused-javascript"]?.details?.overallSavingsBytes ?? 0) / 1024);
  console.log(
    [
      path.padEnd(10),
      String(score(chosen, "performance")).padStart(5),
      String(median(reports.map((r) => score(r, "accessibility")))).padStart(5),
      String(median(reports.map((r) => score(r, "best-practices")))).padStart(5),
      String(metric("largest-contentful-paint")).padStart(8),
      String(metric("total-blocking-time")).padStart(8),
      String(metric("first-contentful-paint")).padStart(8),
      String(unusedKb).padStart(13),
    ].join(" "),
  );
}

const cli = installLighthouse();
const teebox = await startTeebox();
try {
  const cookie = await signIn(teebox.url, "maria", "demo1234");
  for (const visit of ["first visit", "returning member"] as const) {
    console.log(`Lighthouse ${LIGHTHOUSE_VERSION}, mobile profile (simulated slow 4G, 4x CPU), ${visit}, median of ${runs} runs per page`);
    console.log("page        perf  a11y  best   LCP ms   TBT ms   FCP ms  unused JS KB");
    for (const page of PAGES) {
      if (visit === "returning member" && !page.isSignedIn) continue;
      if (onlyPages.length > 0 && !onlyPages.includes(page.path)) continue;
      const url = `${teebox.url}${page.path}`;
      const reports: LighthouseReport[] = [];
      for (let i = 0; i < runs; i++) {
        const label = `${visit}, ${page.path}, run ${i + 1}`;
        const report = await auditWithRetry(label, () => (visit === "first visit" ? audit(cli, url, page.isSignedIn ? cookie : null) : auditReturning(url, cookie)));
        if (!report) continue;
        keepReport(report, visit, page.path, i);
        reports.push(report);
      }
      if (reports.length > 0) printRow(page.path, reports);
      else console.log(`${page.path.padEnd(10)} no audit succeeded`);
    }
  }
  if (retries.length > 0) console.log(`Audits tried again or lost:\n${retries.map((r) => `  ${r}`).join("\n")}`);
} finally {
  await teebox.stop();
}
