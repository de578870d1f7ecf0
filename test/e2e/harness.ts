/**
 * Browser-test harness: a fresh Teebox server per test file (own temp data folder, free port),
 * Chromium through playwright-core, a sign-in fixture that uses the real login form, and
 * screenshots under test-results/. Nothing here sleeps a fixed time: it waits for what a user sees.
 */
import { afterAll, beforeAll } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { manilaTimeOfDay } from "../../src/domain/manila-time.ts";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
export const ADMIN_USERNAME = "admin";
const STARTUP_TIMEOUT_MS = 30_000;
const REPO_ROOT = join(import.meta.dir, "..", "..");
export const RESULTS_DIR = join(REPO_ROOT, "test-results");

export interface TestServer {
  baseUrl: string;
  adminPassword: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `bun src/main.ts` on a free port with a throwaway data folder and waits until the API answers.
 * `env` adds to the server's environment (a journey's own settings, such as a push service stand-in).
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const port = await findFreePort();
  const dataDir = mkdtempSync(join(tmpdir(), "teebox-e2e-"));
  const adminPassword = `e2e-${crypto.randomUUID()}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PASSWORD: adminPassword, LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let printed = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) printed += decoder.decode(chunk);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);

  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(baseUrl, proc);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nServer output:\n${printed}`);
  }
  return { baseUrl, adminPassword, dataDir, output: () => printed, stop };
}

/** Readiness probe: the first successful GET /v1/auth/status, or the process exiting, or the deadline. */
async function waitUntilReady(baseUrl: string, proc: { exitCode: number | null }): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`The server exited with code ${proc.exitCode} before it was ready.`);
    try {
      const response = await fetch(`${baseUrl}/v1/auth/status`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await Bun.sleep(50);
  }
  throw new Error(`The server did not answer ${baseUrl}/v1/auth/status within ${STARTUP_TIMEOUT_MS} ms.`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Pretend the welcome overlay was already seen (for journeys about something else). */
  hasSeenWelcome?: boolean;
}

/** A fresh browser context (own cookies and storage) and page on the test server. */
export async function openPage(browser: Browser, server: TestServer, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: options.viewport ?? { width: 1280, height: 800 } });
  if (options.hasSeenWelcome) {
    await context.addInitScript(() => window.localStorage.setItem("hasSeenWelcome", "true"));
  }
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login form, as a member would, and waits until the app has left /login. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  if (!new URL(page.url(), "http://x").pathname.startsWith("/login")) await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

/**
 * Every state a journey records is also checked for accessibility: a screenshot fails the journey
 * when axe finds a serious or critical violation on the page as it is.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await waitForTransitions(page);
  await page.screenshot({ path, fullPage: true });
  await expectAccessible(page, name);
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

let axeSource: string | null = null;

/**
 * Runs axe-core inside the page (evaluated through the browser's debugging protocol, so the page's
 * content security policy stays as it is) and returns the serious and critical violations.
 */
export async function findAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const isLoaded = await page.evaluate(() => "axe" in window);
  if (!isLoaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(" ")) }));
  });
}

/** Each state's violations, kept for the summary a run prints. */
export const accessibilityLog: { state: string; violations: AxeViolation[] }[] = [];

export async function expectAccessible(page: Page, state: string): Promise<void> {
  const violations = await findAccessibilityViolations(page);
  accessibilityLog.push({ state, violations });
  if (violations.length > 0) {
    const lines = violations.map((v) => `  ${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`);
    throw new Error(`Accessibility violations in "${state}":\n${lines.join("\n")}`);
  }
}

/** Waits for the finite animations on the page (route transitions), so a screenshot shows the settled screen. */
export async function waitForTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Signs in over the API and returns the session cookie, for fixtures that set data up. */
export async function apiSession(server: TestServer, username: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.baseUrl },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`API sign-in as ${username} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get("set-cookie");
  if (!cookie) throw new Error("API sign-in answered without a session cookie.");
  return cookie.split(";")[0];
}

/** Creates a member as the built-in admin (POST /v1/admin/users); the member has no profile yet. */
export async function createMember(server: TestServer, username: string, password: string): Promise<void> {
  const cookie = await apiSession(server, ADMIN_USERNAME, server.adminPassword);
  const response = await fetch(`${server.baseUrl}/v1/admin/users`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.baseUrl, Cookie: cookie },
    body: JSON.stringify({ username, password, role: "user", status: "active" }),
  });
  if (!response.ok) throw new Error(`Creating member ${username} failed: ${response.status} ${await response.text()}`);
}

/**
 * A fresh Teebox and Chromium for one test file: started before its tests, stopped after them.
 * `receive` hands them to the file's own variables; `env` adds to the server's environment.
 */
export function useServerAndBrowser(receive: (server: TestServer, browser: Browser) => void, env: Record<string, string> = {}): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
    receive(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/**
 * Queues a booking request for the signed-in member of `page` over the app's own socket protocol
 * (as the Book page does), for a date the club has not opened yet; returns the server's answer.
 */
export async function submitRequestFromPage(page: Page, request: { date: string; course: string; time: string }): Promise<{ type: string; message?: string }> {
  const answer = await page.evaluate(
    ({ date, course, time }) =>
      new Promise<string>((resolve, reject) => {
        const socket = new WebSocket(`${location.origin.replace(/^http/, "ws")}/v1/ws`);
        socket.onerror = () => reject(new Error("the socket failed"));
        socket.onopen = () =>
          socket.send(
            JSON.stringify({
              action: "SUBMIT_BOOKING_REQUEST",
              payload: { course, targetDate: date, selectionOrder: [{ time, slotId: null }], memberCartType: "Rental Cart - Solo", playerDetails: { players: [] } },
            }),
          );
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string };
          if (message.type === "submissionResult" || message.type === "error") {
            socket.close();
            resolve(String(event.data));
          }
        };
      }),
    request,
  );
  return JSON.parse(answer) as { type: string; message?: string };
}

/** Where the in-process demo club listens and its control token (written by Teebox at start). */
export async function demoClub(server: TestServer): Promise<{ url: string; controlToken: string }> {
  const path = join(server.dataDir, "demo-club.json");
  const deadline = performance.now() + 10_000;
  while (!existsSync(path)) {
    if (performance.now() > deadline) throw new Error(`Teebox did not write ${path}.\n${server.output()}`);
    await Bun.sleep(50);
  }
  return JSON.parse(readFileSync(path, "utf8")) as { url: string; controlToken: string };
}

/** Calls the demo club's control API (loopback only, with its token). */
export async function controlDemoClub(server: TestServer, path: string, body: unknown): Promise<Response> {
  const club = await demoClub(server);
  return fetch(`${club.url}/__control/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-control-token": club.controlToken },
    body: JSON.stringify(body),
  });
}

/** Serves the demo club's pages as the standard portal or as the second, differently written one. */
export async function useClubLayout(server: TestServer, layout: "standard" | "legacy"): Promise<void> {
  const answer = await controlDemoClub(server, "faults", { layout });
  if (!answer.ok) throw new Error(`The demo club refused the layout ${layout}: ${answer.status} ${await answer.text()}`);
}

/** On the desktop Book page: the first live date, the first course open that day, a free time a few slots in. */
export async function bookAnOpenDate(page: Page, waitMs = 20_000): Promise<void> {
  await page.goto("/book");
  await page.getByRole("heading", { name: "Book a tee time", level: 1 }).waitFor();
  const dates = page.getByRole("group", { name: "Live Availability" }).locator("[data-date]");
  await dates.nth(3).waitFor();
  await dates.nth(3).click();
  await page.locator(".course-choice:not([disabled])").first().click();
  const freeSlots = page.locator(".slot:not([disabled])");
  await freeSlots.first().waitFor();
  await freeSlots.nth(Math.min(5, (await freeSlots.count()) - 1)).click();
  await page.getByRole("button", { name: "Submit request", exact: true }).click();
  const submitted = page.getByRole("dialog", { name: "Request Submitted" });
  await submitted.waitFor({ timeout: waitMs });
  await submitted.getByRole("button", { name: "OK" }).click();
}

/** Sets the release to the next whole minute at least 75 s away (Manila), a week before the play date; returns the instant. */
export async function setReleaseSoon(server: TestServer): Promise<number> {
  const cookie = await apiSession(server, ADMIN_USERNAME, server.adminPassword);
  const headers = { "Content-Type": "application/json", Origin: server.baseUrl, Cookie: cookie };
  const settings = ((await (await fetch(`${server.baseUrl}/v1/admin/app-settings`, { headers })).json()) as { settings: Record<string, unknown> }).settings;
  const releaseAt = Math.ceil((Date.now() + 75_000) / 60_000) * 60_000;
  const answer = await fetch(`${server.baseUrl}/v1/admin/app-settings`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ ...settings, release_time: manilaTimeOfDay(releaseAt).slice(0, 5), release_days_before: 7 }),
  });
  if (!answer.ok) throw new Error(`the release settings were refused: ${answer.status} ${await answer.text()}`);
  return releaseAt;
}
