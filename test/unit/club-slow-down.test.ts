/** The adapter tells a club asking it to slow down (429, 503 with Retry-After, a bot wall) from a club in trouble or an ordinary page. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isChallengePage, parseRetryAfter, readSlowDown } from "../../src/club/classify.ts";
import { renderChallengePage } from "../../src/club-sim/faults.ts";

const NOW = Date.UTC(2026, 10, 22, 1, 0, 0);
const PAGE = "<!DOCTYPE html><html><head><title>Southwoods</title></head><body><p>Hello</p></body></html>";
const answer = (status: number, html = PAGE, retryAfter: string | null = null) => readSlowDown({ status, retryAfter, html, clubNowMs: NOW });

const CLOUDFLARE_403 = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div class="main-wrapper"><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2><noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></div></body></html>`;
const BLOCKED_403 = `<html><head><title>Access denied</title></head><body><h1>Request blocked</h1><p>Please complete the captcha to continue.</p></body></html>`;

describe("the club asking Teebox to slow down", () => {
  test("429 always, with or without Retry-After", () => {
    expect(answer(429, PAGE, "120")).toEqual({ reason: "429", status: 429, retryAfterMs: 120_000 });
    expect(answer(429)).toEqual({ reason: "429", status: 429, retryAfterMs: null });
  });

  test("503 only when it says when to come back; a bare 503 is the club in trouble (decision 115)", () => {
    expect(answer(503, PAGE, "30")).toEqual({ reason: "503", status: 503, retryAfterMs: 30_000 });
    expect(answer(503)).toBeNull();
    expect(answer(500, PAGE, "30")).toBeNull();
  });

  test("Retry-After as an HTTP date is read against the club's own clock", () => {
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter(new Date(NOW - 5_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter("soon", NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
  });

  test("a bot wall's challenge page, on 403, 503 or even 200", () => {
    expect(answer(403, CLOUDFLARE_403)).toEqual({ reason: "challenge", status: 403, retryAfterMs: null });
    expect(answer(200, CLOUDFLARE_403)?.reason).toBe("challenge");
    expect(answer(503, renderChallengePage(), "10")).toEqual({ reason: "challenge", status: 503, retryAfterMs: 10_000 });
    expect(answer(403, BLOCKED_403)?.reason).toBe("challenge");
  });

  test("a club's own page with a captcha widget, answered 200, is not a challenge", () => {
    expect(isChallengePage(200, BLOCKED_403)).toBe(false);
    expect(
      isChallengePage(200, `<html><body><form><div class="g-recaptcha"></div><noscript>Please enable JavaScript and cookies to continue.</noscript></form></body></html>`),
    ).toBe(false);
  });

  test("no page of the club Teebox reads is mistaken for one (every saved page, every layout)", () => {
    const folder = join(import.meta.dir, "../fixtures/club");
    const files = readdirSync(folder, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".html"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect([file, answer(200, readFileSync(join(folder, file), "utf8"))]).toEqual([file, null]);
  });
});
