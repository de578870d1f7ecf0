/**
 * The operator's club check: a read-only walk through the club's pages with one club login, the
 * way the adapter reads them. Sign in, read today's and the furthest open tee sheet of every
 * course, the advisories and the member's bookings, and say for each page what was read or why
 * not, with the page's HTML (credentials, tokens and cookies removed) to send with a bug report.
 * Nothing is booked: the only posts are the sign-in itself.
 */
import { systemClock, type Clock } from "../lib/clock.ts";
import { addDays } from "../domain/manila-time.ts";
import { ClubError, pageNotUnderstood } from "./errors.ts";
import { createClubHttp, type ClubHttp, type ClubResponse, type RequestPurpose } from "./http.ts";
import { createClubPoliteness, type ClubPoliteness } from "./politeness.ts";
import { parseAdvisoriesPage } from "./pages/advisories-page.ts";
import { parseNotFoundMessage } from "./pages/booking-result-page.ts";
import { parseBookingsPage } from "./pages/bookings-page.ts";
import { parseHomePage } from "./pages/home-page.ts";
import { isLoginPage, parseLoginPage } from "./pages/login-page.ts";
import { parseTeeSheetPage } from "./pages/tee-sheet-page.ts";
import { parseDocument, textOf } from "./pages/html.ts";
import { CookieJar } from "./session.ts";
import type { CourseNames, NumericDateOrder, PageReadOptions } from "./text.ts";

export interface ClubCheckOptions {
  baseUrl: string;
  email: string;
  password: string;
  courses: readonly CourseNames[];
  /** Today in Manila (ISO). */
  today: string;
  /** How many days ahead to look for the furthest open sheet (the scraper's range). */
  horizonDays: number;
  numericDateOrder?: NumericDateOrder | null;
  timeoutMs?: number;
  clock?: Clock;
  /** The running Teebox's request counts and budget, so a check from the admin area draws from them; absent (the command line), a fresh one. */
  politeness?: ClubPoliteness;
}

export interface PageCheck {
  /** 'login', 'member home', 'tee sheet masters 2025-03-05 (today)', 'advisories', 'my bookings'. */
  page: string;
  path: string;
  ok: boolean;
  /** One line a person reads: what was read, or why not. */
  summary: string;
  count?: number;
  /** The first few records read, as the adapter hands them on. */
  firstRows?: unknown[];
  /** What the adapter reported and read past (an unreadable advisory, an unknown course). */
  problems: string[];
  error?: { kind: string; message: string; missing?: string };
  /** The page as the club sent it, with the login, tokens and cookies removed; '' when none came. */
  html: string;
}

export interface ClubCheckReport {
  clubUrl: string;
  startedAt: number;
  ok: boolean;
  /** The club's clock minus ours, from its Date header (whole seconds); null when it sent none. */
  clockOffsetMs: number | null;
  pages: PageCheck[];
}

const FIRST_ROWS = 3;
const LOGIN_PATH = "/login";

/** Removes what must never leave the machine: the login, every token value and cookie value. */
export function redactPage(html: string, secrets: readonly string[]): string {
  let out = html;
  const values = secrets.filter((s) => s && s.length >= 3);
  for (const secret of values.sort((a, b) => b.length - a.length)) {
    for (const form of new Set([secret, encodeURIComponent(secret), escapeHtml(secret)])) out = out.split(form).join("[removed]");
  }
  // Token fields and metas, whatever the club calls them.
  out = out.replace(
    /(<input\b[^>]*\bname\s*=\s*["']?[^"'\s>]*(?:csrf|xsrf|token|authenticity|verification|nonce)[^"'\s>]*["']?[^>]*\bvalue\s*=\s*)(["'])[^"']*\2/gi,
    "$1$2[removed]$2",
  );
  out = out.replace(/(<input\b[^>]*\bvalue\s*=\s*)(["'])[^"']*\2([^>]*\bname\s*=\s*["']?[^"'\s>]*(?:csrf|xsrf|token|authenticity|verification|nonce))/gi, "$1$2[removed]$2$3");
  out = out.replace(/(<meta\b[^>]*\bname\s*=\s*["'][^"']*(?:csrf|xsrf|token)[^"']*["'][^>]*\bcontent\s*=\s*)(["'])[^"']*\2/gi, "$1$2[removed]$2");
  out = out.replace(/(<input\b[^>]*\btype\s*=\s*["']?password["']?[^>]*\bvalue\s*=\s*)(["'])[^"']*\2/gi, "$1$2$2");
  return out;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
}

const cookieValues = (jar: CookieJar) =>
  jar
    .header()
    .split(";")
    .map((pair) => pair.slice(pair.indexOf("=") + 1).trim())
    .filter(Boolean);

function describeError(error: unknown): { kind: string; message: string; missing?: string } {
  if (error instanceof ClubError) return { kind: error.kind, message: error.message, ...(error.missing ? { missing: error.missing } : {}) };
  return { kind: "error", message: error instanceof Error ? error.message : String(error) };
}

/** Runs the check. Never throws for the club's trouble: each page says what went wrong. */
export async function checkClub(options: ClubCheckOptions): Promise<ClubCheckReport> {
  const clock = options.clock ?? systemClock;
  const politeness = options.politeness ?? createClubPoliteness({ clock });
  const http: ClubHttp = createClubHttp({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs ?? 10_000, maxConnections: 2, clock, politeness });
  // The check is an operator's, for no member: it draws from the whole club's budget only.
  const as = (kind: RequestPurpose["kind"]) => ({ jar, purpose: { kind, memberId: null } });
  const jar = new CookieJar();
  const pages: PageCheck[] = [];
  const report: ClubCheckReport = { clubUrl: options.baseUrl, startedAt: clock.now(), ok: false, clockOffsetMs: null, pages };
  const secrets = new Set<string>([options.email, options.password]);
  const problems: string[] = [];
  const reading: PageReadOptions = { courses: options.courses, numericDateOrder: options.numericDateOrder ?? null, report: (p) => problems.push(p) };

  /** Fetches a page, parses it, and records what came of it; returns the parsed value or null. */
  async function visit<T>(
    page: string,
    path: string,
    fetchPage: () => Promise<ClubResponse>,
    read: (html: string) => T,
    describe: (value: T) => { summary: string; count?: number; firstRows?: unknown[] },
  ): Promise<T | null> {
    problems.length = 0;
    let html = "";
    try {
      const response = await fetchPage();
      html = response.html;
      if (report.clockOffsetMs === null && response.clubDateMs !== null) report.clockOffsetMs = Math.round(response.clubDateMs - (response.sentMs + response.receivedMs) / 2);
      if (response.status !== 200) {
        const isLogin = (response.status >= 300 && response.status < 400 && (response.location ?? "").startsWith(LOGIN_PATH)) || isLoginPage(html);
        if (isLogin) throw new ClubError("session_expired", `The club sent the sign-in page instead of the ${page} page.`);
        if (response.status === 404) throw new ClubError("not_found", parseNotFoundMessage(html) ?? `The club has no such ${page} page.`, { status: 404 });
        throw pageNotUnderstood(page, `a ${page} page (the club answered ${response.status})`);
      }
      if (page !== "login" && isLoginPage(html)) throw new ClubError("session_expired", `The club sent the sign-in page instead of the ${page} page.`);
      const value = read(html);
      const described = describe(value);
      pages.push({ page, path, ok: true, ...described, problems: [...problems], html: redactPage(html, [...secrets, ...cookieValues(jar)]) });
      return value;
    } catch (error) {
      const described = describeError(error);
      pages.push({ page, path, ok: false, summary: described.message, problems: [...problems], error: described, html: redactPage(html, [...secrets, ...cookieValues(jar)]) });
      return null;
    }
  }

  // Sign in: the login form, the post, the member's home page.
  const login = await visit(
    "login",
    LOGIN_PATH,
    () => http.send(LOGIN_PATH, as("sign_in")),
    (html) => parseLoginPage(html),
    (form) => ({ summary: `login form found: fields '${form.userField}' and '${form.passwordField}', token in a hidden field` }),
  );
  if (!login) return finish(report);
  secrets.add(login.csrf);
  const answer = await http
    .send(login.action || LOGIN_PATH, { ...as("sign_in"), method: "POST", form: { ...login.hidden, [login.userField]: options.email, [login.passwordField]: options.password } })
    .catch((error: unknown) => error);
  if (answer instanceof Error || !("status" in (answer as object))) {
    pages.push({ page: "sign-in", path: login.action || LOGIN_PATH, ok: false, summary: describeError(answer).message, problems: [], error: describeError(answer), html: "" });
    return finish(report);
  }
  const posted = answer as ClubResponse;
  if (!(posted.status >= 300 && posted.status < 400 && posted.location && !posted.location.startsWith(LOGIN_PATH))) {
    const again = (() => {
      try {
        return parseLoginPage(posted.html).error;
      } catch {
        return null;
      }
    })();
    const error = { kind: "bad_credentials", message: `The club did not accept the login${again ? `: ${again}` : "."}` };
    pages.push({
      page: "sign-in",
      path: login.action || LOGIN_PATH,
      ok: false,
      summary: error.message,
      problems: [],
      error,
      html: redactPage(posted.html, [...secrets, ...cookieValues(jar)]),
    });
    return finish(report);
  }
  const home = await visit(
    "member home",
    posted.location,
    () => http.send(posted.location!, as("sign_in")),
    (html) => parseHomePage(html),
    (h) => ({ summary: `signed in as ${h.memberName} (${h.membershipNumber})` }),
  );
  if (!home) return finish(report);
  secrets.add(home.csrf);

  // Teebox with no courses yet (a first check before setting up): take them from the club's own picker.
  let courseList = options.courses;
  if (courseList.length === 0) {
    const picked = await visit(
      "courses (from the club's tee sheet picker)",
      "/members/tee-sheet",
      () => http.send("/members/tee-sheet", as("sheet")),
      coursesInPicker,
      (list) => ({
        summary: `Teebox has no courses yet; the club's picker lists ${list.map((c) => `${c.name} (${c.id})`).join(", ")}`,
        count: list.length,
      }),
    );
    courseList = picked ?? [];
    reading.courses = courseList;
  }

  for (const course of courseList) {
    const sheetPath = (date: string) => `/members/tee-sheet?${new URLSearchParams({ date, course: course.id })}`;
    const readSheet = (date: string) => (html: string) => {
      const sheet = parseTeeSheetPage(html, reading);
      if (sheet.date !== date || sheet.course !== course.id)
        throw pageNotUnderstood("tee sheet", `the sheet of ${course.id} on ${date} (the page is ${sheet.course} on ${sheet.date})`);
      return sheet;
    };
    const describeSheet = (sheet: ReturnType<typeof parseTeeSheetPage>) => ({
      summary: !sheet.released
        ? "not released yet"
        : sheet.slots.length === 0
          ? "no tee times (closed or empty)"
          : `${sheet.slots.length} slots, ${sheet.slots.filter((s) => s.status === "AVAILABLE").length} available`,
      count: sheet.slots.length,
      firstRows: sheet.slots.slice(0, FIRST_ROWS),
    });
    await visit(
      `tee sheet ${course.id} ${options.today} (today)`,
      sheetPath(options.today),
      () => http.send(sheetPath(options.today), as("sheet")),
      readSheet(options.today),
      describeSheet,
    );
    // The furthest open sheet: walk back from the end of the range to the first released one.
    for (let i = Math.max(1, options.horizonDays - 1); i >= 1; i--) {
      const date = addDays(options.today, i);
      const response = await http.send(sheetPath(date), as("sheet")).catch(() => null);
      let isReleased = false;
      try {
        isReleased = response !== null && response.status === 200 && readSheet(date)(response.html).released;
      } catch {
        isReleased = true; // an unreadable sheet is reported below, not skipped over
      }
      if (!isReleased && i > 1) continue;
      await visit(
        `tee sheet ${course.id} ${date} (furthest open)`,
        sheetPath(date),
        async () => response ?? http.send(sheetPath(date), as("sheet")),
        readSheet(date),
        describeSheet,
      );
      break;
    }
  }

  await visit(
    "advisories",
    "/advisories",
    () => http.send("/advisories", as("advisories")),
    (html) => parseAdvisoriesPage(html, reading),
    (list) => ({ summary: `${list.length} advisories`, count: list.length, firstRows: list.slice(0, FIRST_ROWS) }),
  );
  await visit(
    "my bookings",
    "/members/bookings",
    () => http.send("/members/bookings", as("my_bookings")),
    (html) => parseBookingsPage(html, reading),
    (list) => ({ summary: `${list.length} bookings`, count: list.length, firstRows: list.slice(0, FIRST_ROWS) }),
  );
  await http.send("/logout", as("sign_out")).catch(() => undefined);
  return finish(report);
}

/** The options of the tee sheet's course picker: the club's course ids and names. */
function coursesInPicker(html: string): CourseNames[] {
  const document = parseDocument(html);
  for (const select of document.querySelectorAll("select")) {
    if (!/course/i.test(`${select.getAttribute("name") ?? ""} ${select.getAttribute("id") ?? ""}`)) continue;
    const list = [...select.querySelectorAll("option")].map((option) => ({ id: (option.getAttribute("value") ?? "").trim(), name: textOf(option) })).filter((c) => c.id && c.name);
    if (list.length > 0) return list;
  }
  throw pageNotUnderstood("tee sheet", "a course picker (Teebox has no courses set up to read)");
}

function finish(report: ClubCheckReport): ClubCheckReport {
  report.ok = report.pages.length > 0 && report.pages.every((p) => p.ok);
  return report;
}

/** The report as lines for a terminal. */
export function formatClubCheck(report: ClubCheckReport): string {
  const lines = [`Club check of ${report.clubUrl}: ${report.ok ? "every page read" : "some pages could not be read"}`];
  lines.push(`Clock offset (club − Teebox, from the Date header): ${report.clockOffsetMs === null ? "unknown (no Date header)" : `${(report.clockOffsetMs / 1000).toFixed(1)} s`}`);
  for (const page of report.pages) {
    lines.push(`${page.ok ? "ok  " : "FAIL"} ${page.page}: ${page.summary}`);
    for (const problem of page.problems) lines.push(`       note: ${problem}`);
    for (const row of page.firstRows ?? []) lines.push(`       ${JSON.stringify(row)}`);
  }
  return lines.join("\n");
}
