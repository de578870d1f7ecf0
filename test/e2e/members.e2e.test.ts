/**
 * A new member's own data in real Chromium: the first-login setup wizard (with a wrong club login
 * first, then the demo club's right one), saved players, the profile, and a password change.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createMember, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The demo club's account for Ana (src/club-sim/demo-data.ts). */
const CLUB_EMAIL = "ana@southwoods.demo";
const CLUB_PASSWORD = "ana-club";

const stepTitle = (page: Page, name: string) => page.getByRole("heading", { level: 2, name }).waitFor();
const rowTexts = (page: Page) =>
  page.locator(".players-table tbody tr").evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent ?? "")));

/** Every file of the data folder (database, WAL, key file…): none may hold the club password in clear. */
function dataFolderHolds(text: string): boolean {
  return readdirSync(server.dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .some((entry) => readFileSync(join(entry.parentPath, entry.name)).includes(Buffer.from(text)));
}

/** One member, one browser session, through the journey in order (each step builds on the last). */
let context: BrowserContext;
let page: Page;
const JOURNEY_STEP_MS = 30_000;

describe("a new member's own data", () => {
  beforeAll(async () => {
    await createMember(server, "newbie", "newbie");
    ({ context, page } = await openPage(browser, server, { hasSeenWelcome: true }));
    // A step that cannot happen fails with its locator well inside the test's own time limit.
    context.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
  });

  test(
    "signs in with the username as password and goes through the whole setup wizard",
    async () => {
      // The username is the first password; a member without a profile lands on the wizard.
      await page.goto("/login");
      await signIn(page, "newbie", "newbie");
      await page.waitForURL("**/setup");

      // 1. Secure Your Account
      await stepTitle(page, "Secure Your Account");
      const next = page.getByRole("button", { name: "Next" });
      expect(await next.isDisabled()).toBe(true);
      await page.getByLabel("New password").fill("first-pass-1");
      await page.getByLabel("Confirm password").fill("first-pass-1");
      await next.click();

      // 2. Profile details, kept across a reload.
      await stepTitle(page, "Enter Your Profile Details");
      await page.getByLabel("Full name").fill("Ana Cruz");
      await page.getByLabel("Membership number").fill("sw-1003");
      await page.reload();
      await stepTitle(page, "Enter Your Profile Details");
      expect(await page.getByLabel("Full name").inputValue()).toBe("Ana Cruz");
      expect(await page.getByLabel("Membership number").inputValue()).toBe("SW-1003");
      await page.getByRole("button", { name: "Next" }).click();

      // 3. The club login: a wrong password is refused by the club, the right one passes.
      await stepTitle(page, "Connect Your Southwoods Account");
      await page.getByLabel("Southwoods email").fill(CLUB_EMAIL);
      await page.getByLabel("Southwoods password").fill("not-the-club-password");
      await page.getByRole("button", { name: "Verify & Continue" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: /did not accept/ })
        .waitFor();
      await saveScreenshot(page, "members-setup-club-refused");
      await page.getByLabel("Southwoods password").fill(CLUB_PASSWORD);
      // Club checks are paced like a person typing: if this one comes too soon, the app says so and
      // Verify comes back once the wait is over.
      const verify = page.getByRole("button", { name: "Verify & Continue" });
      await verify.click();
      const tooSoon = page.getByRole("alert").filter({ hasText: /wait a moment/ });
      const defaults = page.getByRole("heading", { name: "Set Default Preferences", level: 2 });
      await Promise.race([tooSoon.waitFor(), defaults.waitFor()]);
      if (await tooSoon.isVisible()) {
        await page.waitForFunction(() => {
          const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("Verify & Continue"));
          return button !== undefined && !button.disabled;
        });
        await verify.click();
      }

      // 4. Defaults, then 5. ALL DONE!
      await stepTitle(page, "Set Default Preferences");
      expect(await page.getByLabel("Default cart type").inputValue()).toBe("Rental Cart - Solo");
      await page.getByLabel("Default cart type").selectOption("Own Cart");
      await page.getByRole("button", { name: "Save & Finish" }).click();
      await stepTitle(page, "ALL DONE!");
      for (const item of ["Book a Tee Time", "My Bookings", "Player List"]) await page.getByRole("heading", { level: 3, name: item }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem("teebox.setupWizard"))).toBeNull();
      await saveScreenshot(page, "members-setup-done");
      await page.getByRole("button", { name: "Go to Dashboard" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.locator(".app-header__welcome", { hasText: "Welcome, Ana Cruz" }).waitFor();
      // The profile reached the files on disk (database or its WAL), the club password only sealed.
      expect(dataFolderHolds(CLUB_EMAIL)).toBe(true);
      expect(dataFolderHolds(CLUB_PASSWORD)).toBe(false);
    },
    JOURNEY_STEP_MS,
  );

  test(
    "adds, edits and removes saved players; another tab follows",
    async () => {
      await page.goto("/");
      // Saved players: add two, with a second tab open that follows the changes.
      await page.getByTestId("tab-bar").getByRole("link", { name: "Players" }).click();
      await page.waitForURL("**/players");
      await page.getByText("You have no saved players yet.", { exact: false }).waitFor();
      const otherTab = await context.newPage();
      await otherTab.goto("/players");
      await otherTab.getByText("You have no saved players yet.", { exact: false }).waitFor();
      // Back to the member's tab: a background tab's frames are throttled, which slows every click.
      await page.bringToFront();

      await page.getByRole("button", { name: "Add Player" }).click();
      let dialog = page.getByRole("dialog", { name: "Add Player" });
      await dialog.getByLabel("Player type").selectOption("Member");
      await dialog.getByLabel("First name").fill("paolo");
      await dialog.getByLabel("Last name").fill("SANTOS,");
      await dialog.getByLabel("Membership #").fill("sw-1001-s");
      await dialog.getByRole("button", { name: "Add Player" }).click();
      await dialog.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Add Player" }).click();
      dialog = page.getByRole("dialog", { name: "Add Player" });
      await dialog.getByLabel("Player type").selectOption("Guest");
      expect(await dialog.getByLabel("Membership #").inputValue()).toBe("0000");
      await dialog.getByLabel("First name").fill("lito.");
      await dialog.getByLabel("Last name").fill("  LAPID ");
      await dialog.getByRole("button", { name: "Add Player" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.locator(".players-table tbody tr").nth(1).waitFor();
      expect(await rowTexts(page)).toEqual([
        // Cart and fee start from the member's defaults (the cart chosen in the wizard).
        ["Paolo", "Santos", "Member", "SW-1001-S", "Own Cart", "Charge to their account"],
        ["Lito", "Lapid", "Guest", "0000", "Own Cart", "Charge my guest"],
      ]);
      await otherTab.locator(".players-table tbody tr").nth(1).waitFor();

      // An exact duplicate is refused in the modal.
      await page.getByRole("button", { name: "Add Player" }).click();
      dialog = page.getByRole("dialog", { name: "Add Player" });
      await dialog.getByLabel("First name").fill("Paolo");
      await dialog.getByLabel("Last name").fill("Santos,");
      await dialog.getByLabel("Membership #").fill("SW-1001-S");
      await dialog.getByRole("button", { name: "Add Player" }).click();
      await dialog.getByRole("alert").filter({ hasText: "This exact player already exists in your list." }).waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // Edit List: rename one, remove the other, save.
      await page.getByRole("button", { name: "Edit List" }).click();
      await page.getByLabel("Last name (Player 1)").fill("Santos Jr");
      await page.getByRole("button", { name: "Remove Lito Lapid" }).click();
      await saveScreenshot(page, "members-players-editing");
      await page.getByRole("button", { name: "Save Changes" }).click();
      await page.getByRole("button", { name: "Edit List" }).waitFor();
      expect(await rowTexts(page)).toEqual([["Paolo", "Santos Jr", "Member", "SW-1001-S", "Own Cart", "Charge to their account"]]);
      await otherTab.locator(".players-table tbody tr").nth(1).waitFor({ state: "detached" });
      await otherTab.close();
      await page.reload();
      await page.locator(".players-table tbody tr").first().waitFor();
      expect((await rowTexts(page)).length).toBe(1);
    },
    JOURNEY_STEP_MS,
  );

  test(
    "edits the profile",
    async () => {
      // Profile: edit the name; the header follows after the session re-check.
      await page.getByTestId("tab-bar").getByRole("link", { name: "Profile" }).click();
      await page.waitForURL("**/profile");
      const details = page.getByRole("form", { name: "Your details" });
      expect(await details.getByLabel("Full name").isDisabled()).toBe(true);
      await details.getByRole("button", { name: "Edit" }).click();
      await details.getByLabel("Full name").fill("");
      await details.getByRole("button", { name: "Save Profile" }).click();
      await details.getByText("Full name is required.").waitFor();
      await details.getByLabel("Full name").fill("Ana M. Cruz");
      await details.getByRole("button", { name: "Save Profile" }).click();
      await page.getByText("Profile updated successfully!").waitFor();
      await page.locator(".app-header__welcome", { hasText: "Welcome, Ana M. Cruz" }).waitFor();
      expect(await details.getByLabel("Full name").isDisabled()).toBe(true);
      await saveScreenshot(page, "members-profile");
    },
    JOURNEY_STEP_MS,
  );

  test(
    "changes the password and signs in again with it",
    async () => {
      await page.goto("/profile");
      // Change the password, sign out, and sign in with the new one.
      const passwords = page.getByRole("form", { name: "Change password" });
      const change = passwords.getByRole("button", { name: "Change Password" });
      await passwords.getByLabel("Current password").fill("first-pass-1");
      await passwords.getByLabel("New password", { exact: true }).fill("second-pass-2");
      await passwords.getByLabel("Confirm new password").fill("second-pass-3");
      await passwords.getByText("New passwords do not match.").waitFor();
      expect(await change.isDisabled()).toBe(true);
      await passwords.getByLabel("Confirm new password").fill("second-pass-2");
      await change.click();
      await page.getByText("Password changed successfully!").waitFor();

      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL("**/login");
      await page.getByLabel("Username").fill("newbie");
      await page.getByLabel("Password").fill("first-pass-1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Invalid username or password." }).waitFor();
      await signIn(page, "newbie", "second-pass-2");
      await page.locator(".app-header__welcome", { hasText: "Welcome, Ana M. Cruz" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
    },
    JOURNEY_STEP_MS,
  );
});
