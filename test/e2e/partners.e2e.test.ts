/**
 * Playing partners in real Chromium against the demo club, three members in three browser contexts:
 * the admin moves the release a minute or two ahead (the demo club follows the release settings);
 * Maria books a flight naming Jose and Ana on the Book page; Jose accepts on his Bookings page, Ana
 * declines from the bell, both before the release; Maria sees each answer beside each player; the
 * release books the flight without Ana; Jose sees the game read only "with Maria Santos".
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { addDays, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { openPage, setReleaseSoon, saveScreenshot, signIn, useServerAndBrowser, type TestServer } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const contexts: BrowserContext[] = [];
async function memberPage(username: string): Promise<Page> {
  const { context, page } = await openPage(browser, server, { viewport: { width: 1280, height: 900 }, hasSeenWelcome: true });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  await signIn(page, username, "demo1234");
  return page;
}

async function addMember(page: Page, lastName: string, memberId: string): Promise<void> {
  const before = await page.locator(".player-list > li").count();
  await page.getByRole("button", { name: "Add a player", exact: true }).click();
  const row = page.getByRole("listitem", { name: `Player ${before + 1}` });
  await row.getByLabel("Last name").fill(lastName);
  await row.getByLabel("Membership #").fill(memberId);
}

describe("playing partners", () => {
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  test("one partner accepts, the other declines before the release; the release books the flight and the partner sees it with the organiser", async () => {
    const maria = await memberPage("maria");
    const jose = await memberPage("jose");
    const ana = await memberPage("ana");
    const releaseAt = await setReleaseSoon(server);
    const date = addDays(manilaDate(releaseAt), 7);
    const course = weekdayOf(date) === 7 ? "Legends" : "Masters";

    // Maria books a flight naming Jose and Ana by their membership numbers.
    await maria.goto("/book");
    await maria.locator(`[data-date="${date}"]`).click();
    await maria.locator(".course-choice:not([disabled])", { hasText: course }).click();
    await maria.locator(".slot:not([disabled])").first().waitFor();
    // A time the demo club's rivals leave alone (they take early-morning slots).
    const time = await maria.locator(".slot:not([disabled])").evaluateAll((slots) => slots.map((s) => s.getAttribute("data-time") ?? "").find((t) => t >= "09:00"));
    if (!time) throw new Error("no free time after 09:00");
    await maria.locator(`.slot[data-time="${time}"]`).click();
    await addMember(maria, "Reyes", "SW-1002");
    await addMember(maria, "Cruz", "SW-1003");
    await maria.getByRole("checkbox", { name: "Send only if every partner has accepted by the readiness check" }).waitFor();
    await maria.getByRole("button", { name: "Submit request", exact: true }).click();
    const submitted = maria.getByRole("dialog", { name: "Request Scheduled" });
    await submitted.waitFor();
    await submitted.getByRole("button", { name: "OK" }).click();
    expect(Date.now()).toBeLessThan(releaseAt);

    // Jose accepts on his Bookings page.
    await jose.goto("/bookings");
    const invitation = jose.locator('[data-testid^="invitation:"]');
    await invitation.getByText(`Maria Santos invites you: ${course} on ${date} at ${time}`).waitFor();
    await saveScreenshot(jose, "partners-invited");
    await invitation.getByRole("button", { name: "Accept" }).click();
    await invitation.getByText("Accepted").first().waitFor();

    // Ana declines from the bell.
    await ana.getByTestId("notification-bell").click();
    const line = ana.locator('[data-testid^="notification:"]', { hasText: "Maria Santos invites you to play" });
    await line.getByRole("button", { name: "Decline" }).click();
    await line.getByText("Declined").waitFor();
    await ana.keyboard.press("Escape");

    // Maria sees each answer beside each player, live.
    await maria.goto("/bookings");
    const game = maria.locator('[data-testid^="partner-game:request:"]');
    await game.getByTestId("partner-answer:SW-1002").getByText("Accepted").waitFor();
    await game.getByTestId("partner-answer:SW-1003").getByText("Declined").waitFor();
    await saveScreenshot(maria, "partners-answers");
    expect(Date.now()).toBeLessThan(releaseAt);

    // The release books the flight, without Ana.
    const booked = maria.getByTestId(/^booking:/).filter({ hasText: time });
    await booked.first().waitFor({ timeout: releaseAt - Date.now() + 60_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt);
    await booked.first().getByRole("button", { name: "Show details" }).click();
    const details = (await maria.locator(".item-details").first().textContent()) ?? "";
    expect(details).toContain("Reyes");
    expect(details).not.toContain("Cruz");

    // Jose sees the game read only, with the organiser, and is told.
    const played = jose.locator('[data-testid^="invitation:"]', { hasText: "with Maria Santos" });
    await played.waitFor({ timeout: 30_000 });
    expect(await played.textContent()).toContain("Booked by Maria Santos: only they can change it.");
    expect(await played.getByRole("button").count()).toBe(0);
    await jose.getByTestId("notification-bell").click();
    await jose.locator(".notification__text", { hasText: `You are playing with Maria Santos: ${course} on ${date} at ${time}` }).waitFor();
    await jose.keyboard.press("Escape");
    await saveScreenshot(jose, "partners-booked");
  }, 300_000);
});
