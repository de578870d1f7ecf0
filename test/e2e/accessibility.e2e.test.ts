/**
 * axe-core on every page, member and admin, at a desktop and a phone width, in the states a
 * member or an admin reaches: dialogs open, edit rows open, a form error shown. Any serious or
 * critical violation fails (the journeys run the same check at every screenshot).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ADMIN_USERNAME, expectAccessible, openPage, signIn, type TestServer, useServerAndBrowser, waitForTransitions } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const VIEWPORTS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;
const ADMIN_TABS = ["System Monitor", "Users", "App Settings", "Courses", "Booking Windows", "Guest Rules", "Frontpage Content", "UI Text", "API"];

async function settle(page: Page): Promise<void> {
  await waitForTransitions(page);
}

for (const { name, viewport } of VIEWPORTS) {
  describe(`accessibility at ${name} width`, () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      ({ context, page } = await openPage(browser, server, { viewport, hasSeenWelcome: true }));
      context.setDefaultTimeout(15_000);
    });
    afterAll(async () => {
      await context?.close();
    });

    test("the login page, also with its error line shown", async () => {
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await expectAccessible(page, `${name} login`);
      await page.getByLabel("Username").fill("nobody");
      await page.getByLabel("Password").fill("wrong-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      await expectAccessible(page, `${name} login error`);
    });

    test("every member page, the Add Player dialog and the profile in edit mode", async () => {
      // The browser's own list of problems: a script that breaks the content security policy (even
      // one caught, such as a library probing for eval) shows up there and costs best practices.
      const cdp = await context.newCDPSession(page);
      const policyIssues: unknown[] = [];
      cdp.on("Audits.issueAdded", (event: { issue: { code: string; details: unknown } }) => {
        if (event.issue.code === "ContentSecurityPolicyIssue") policyIssues.push(event.issue.details);
      });
      await cdp.send("Audits.enable");
      await signIn(page, "ana", "demo1234");
      for (const [path, heading] of [
        ["/", "Home"],
        ["/book", "Book a tee time"],
        ["/bookings", "My Bookings"],
        ["/players", "Saved Players"],
        ["/profile", "Profile"],
      ] as const) {
        await page.goto(path);
        await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
        await settle(page);
        await expectAccessible(page, `${name} ${path}`);
      }
      await page.goto("/players");
      await page.getByRole("button", { name: "Add Player" }).click();
      await page.getByRole("dialog", { name: "Add Player" }).waitFor();
      await settle(page);
      await expectAccessible(page, `${name} add player dialog`);
      await page.keyboard.press("Escape");
      await page.goto("/profile");
      await page.getByRole("button", { name: "Edit" }).first().click();
      await settle(page);
      await expectAccessible(page, `${name} profile editing`);
      expect(policyIssues).toEqual([]);
      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL("**/login");
    }, 60_000);

    test("every admin tab, a new user row and the Add Rule dialog", async () => {
      await signIn(page, ADMIN_USERNAME, server.adminPassword);
      await page.goto("/admin");
      for (const tab of ADMIN_TABS) {
        await page.getByRole("tab", { name: tab }).click();
        await settle(page);
        await expectAccessible(page, `${name} admin ${tab}`);
      }
      await page.getByRole("tab", { name: "Users" }).click();
      await page.getByRole("button", { name: "Add User" }).click();
      await settle(page);
      await expectAccessible(page, `${name} admin new user row`);
      await page.getByRole("tab", { name: "Guest Rules" }).click();
      await page.getByRole("button", { name: "Add Rule" }).click();
      await page.getByRole("dialog", { name: "Add Rule" }).waitFor();
      await settle(page);
      await expectAccessible(page, `${name} admin rule dialog`);
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL("**/login");
    }, 90_000);
  });
}
