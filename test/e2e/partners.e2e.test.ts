/**
 * Playing partners in real Chromium against the demo club, three members in three browser contexts:
 * the admin moves the release a minute or two ahead (the demo club follows the release settings);
 * Maria books a flight naming Jose and Ana on the Book page; Jose accepts on his Bookings page, Ana
 * declines from the bell, both before the release; Maria sees each answer beside each player; the
 * release books the flight without Ana; Jose sees the game read only "with Maria Santos". Jose is on a
 * 390×844 phone throughout, and Ana, on one too, composes a flight naming him that day: the
 * invitations' Accept and Decline and the Book form's partners' option and overlap warning fit the
 * screen with 44 px tap targets (each saved state is also checked by axe). A request for a game
 * released already that needs every partner's answer is told "Request Not Sent" with its reason, on
 * a desktop and on a phone (decision 198).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { addDays, manilaDate, weekdayOf } from "../../src/domain/manila-time.ts";
import { openPage, setReleaseSoon, saveScreenshot, signIn, useServerAndBrowser, type TestServer } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const PHONE = { width: 390, height: 844 };
/** The app's smallest tap target (a button's min-height, 2.75rem). */
const TAP_PX = 44;

const contexts: BrowserContext[] = [];
async function memberPage(username: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const { context, page } = await openPage(browser, server, { viewport, hasSeenWelcome: true });
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

/** What does not fit a phone: the page wider than the screen, a part reaching past its edges, a target smaller than a fingertip. */
async function phoneProblems(page: Page, parts: Locator[], targets: Locator[]): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
  if (overflow > 0) problems.push(`the page is ${overflow} px wider than the screen`);
  for (const part of parts) {
    for (const element of await part.all()) {
      const box = await element.boundingBox();
      if (!box) problems.push(`${part} is not shown`);
      else if (box.x < -0.5 || box.x + box.width > PHONE.width + 0.5) problems.push(`${part} spans ${Math.round(box.x)}–${Math.round(box.x + box.width)} px`);
      const isClipped = await element.evaluate((el) => el.scrollWidth > el.clientWidth + 0.5);
      if (isClipped) problems.push(`${part} is cut short`);
    }
  }
  for (const target of targets) {
    const found = await target.all();
    if (found.length === 0) problems.push(`${target} is missing`);
    for (const element of found) {
      const box = await element.boundingBox();
      if (!box || Math.round(box.width) < TAP_PX || Math.round(box.height) < TAP_PX)
        problems.push(`${(await element.textContent())?.trim() || target} is ${Math.round(box?.width ?? 0)}×${Math.round(box?.height ?? 0)} px`);
    }
  }
  return problems;
}

describe("playing partners", () => {
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  test("one partner accepts, the other declines before the release; the release books the flight and the partner sees it with the organiser", async () => {
    const maria = await memberPage("maria");
    const jose = await memberPage("jose", PHONE);
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
    expect(await phoneProblems(jose, [invitation], [invitation.getByRole("button", { name: "Accept" }), invitation.getByRole("button", { name: "Decline" })])).toEqual([]);
    await saveScreenshot(jose, "partners-invited-phone");
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
    await saveScreenshot(jose, "partners-booked-phone");

    // Ana, on a phone, composes a flight naming Jose near his game that day: the option and the warning fit.
    await ana.setViewportSize(PHONE);
    await ana.goto("/book");
    await ana.locator(`[data-date="${date}"]`).click();
    await ana.getByRole("button", { name: "Next", exact: true }).click();
    await ana.locator(".course-choice:not([disabled])", { hasText: course }).click();
    await ana.getByRole("button", { name: "Next", exact: true }).click();
    await ana.locator(".slot:not([disabled])").first().waitFor();
    // The free time nearest his, so the two flights are within a round of each other.
    const near = await ana.locator(".slot:not([disabled])").evaluateAll((slots, booked) => {
      const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
      const times = slots.map((s) => s.getAttribute("data-time") ?? "").filter((t) => t !== "");
      return times.sort((a, b) => Math.abs(minutes(a) - minutes(booked)) - Math.abs(minutes(b) - minutes(booked)))[0];
    }, time);
    await ana.locator(`.slot[data-time="${near}"]`).click();
    await ana.getByRole("button", { name: "Next", exact: true }).click();
    await addMember(ana, "Reyes", "SW-1002");
    await ana.getByRole("button", { name: "Next", exact: true }).click();
    const warning = ana.getByTestId("overlap:SW-1002");
    await warning.waitFor();
    expect(await warning.textContent()).toBe(`Reyes (SW-1002) is already in another flight at ${time} that day.`);
    const option = ana.locator(".partner-options label", { hasText: "Send only if every partner has accepted by the readiness check" });
    await option.click();
    expect(await ana.getByRole("checkbox", { name: "Send only if every partner has accepted by the readiness check" }).isChecked()).toBe(true);
    // The box sits beside its words, not above them.
    const [box, words] = [await option.locator("input").boundingBox(), await option.locator("span").boundingBox()];
    expect(box && words && box.x + box.width <= words.x && box.y + box.height / 2 > words.y && box.y + box.height / 2 < words.y + words.height).toBe(true);
    const submitButton = ana.getByRole("button", { name: "Submit request", exact: true });
    const backButton = ana.getByRole("button", { name: "Back", exact: true });
    expect(await phoneProblems(ana, [ana.locator(".partner-options"), warning, option], [option, submitButton, backButton])).toEqual([]);
    await saveScreenshot(ana, "partners-book-phone");
  }, 300_000);

  test("a request for a game already released that needs every partner's answer is not sent: the member is told so, with the reason, on a desktop and on a phone", async () => {
    const held = async (page: Page, partner: { lastName: string; memberId: string }, isPhone: boolean) => {
      // Dates released days ago, one for each member, so neither partner is in two flights that day.
      const date = addDays(manilaDate(Date.now()), isPhone ? 2 : 1);
      const next = () => (isPhone ? page.getByRole("button", { name: "Next", exact: true }).click() : Promise.resolve());
      await page.goto("/book");
      await page.locator(`[data-date="${date}"]`).click();
      await next();
      await page.locator(".course-choice:not([disabled])").first().click();
      await next();
      // A time the demo club's rivals leave alone.
      const time = await page.locator(".slot:not([disabled])").evaluateAll((slots) => slots.map((s) => s.getAttribute("data-time") ?? "").find((t) => t >= "10:00"));
      if (!time) throw new Error(`no free time left on ${date}`);
      await page.locator(`.slot[data-time="${time}"]`).click();
      await next();
      await addMember(page, partner.lastName, partner.memberId);
      await next();
      await page.getByRole("checkbox", { name: "Send only if every partner has accepted by the readiness check" }).check();
      await page.getByRole("button", { name: "Submit request", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Request Not Sent" });
      await dialog.waitFor();
      const text = (await dialog.textContent()) ?? "";
      expect(text).toContain("not every partner has accepted yet: the game is already released, so they could not be asked");
      expect(text).toContain(`Not every partner has accepted: ${partner.lastName}`);
      expect(text).not.toContain("Request Submitted");
      return dialog;
    };

    const maria = await memberPage("maria");
    await held(maria, { lastName: "Reyes", memberId: "SW-1002" }, false);
    await saveScreenshot(maria, "partners-held-desktop");

    const ana = await memberPage("ana", PHONE);
    const dialog = await held(ana, { lastName: "Santos", memberId: "SW-1001" }, true);
    expect(await phoneProblems(ana, [dialog], [dialog.getByRole("button", { name: "OK" })])).toEqual([]);
    await saveScreenshot(ana, "partners-held-phone");
    await dialog.getByRole("button", { name: "OK" }).click();

    // On the Bookings page the request is listed unsent (needing attention, or failed once the
    // readiness check has looked), with the same reason in its details.
    await ana.goto("/bookings");
    const card = ana.getByTestId(/^request:/);
    await card.locator(".status", { hasText: /^(Needs attention|Failed)$/ }).waitFor();
    expect(await card.count()).toBe(1);
    await card.getByRole("button", { name: "Show details" }).click();
    await card.getByText("Reason: Not every partner has accepted: Santos.").waitFor();
  }, 120_000);
});
