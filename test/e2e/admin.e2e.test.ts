/** The admin area in real Chromium: users, courses, windows, holidays and rules; UI text live in a second page; the monitor. */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ADMIN_USERNAME, openPage, saveScreenshot, signIn, type TestServer, useServerAndBrowser } from "./harness.ts";

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function openAdmin(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await openPage(browser, server, { hasSeenWelcome: true });
  await page.goto("/login");
  await signIn(page, ADMIN_USERNAME, server.adminPassword);
  await page.goto("/admin");
  await page.getByRole("heading", { name: "Admin", level: 1 }).waitFor();
  return { page, close: () => context.close() };
}

async function confirmDelete(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Please confirm" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("admin area", () => {
  test("the monitor shows the club and real figures, and refreshes", async () => {
    const { page, close } = await openAdmin();
    try {
      await page.getByTestId("monitor-cpu").waitFor();
      expect(await page.getByTestId("monitor-cpu").textContent()).toMatch(/\d+(\.\d)?% of \d+ cores/);
      expect(await page.getByTestId("monitor-memory").textContent()).toMatch(/(KB|MB|GB|TB) of .*(GB|TB) \(\d+(\.\d)?%\)/);
      expect(await page.getByTestId("monitor-disk").textContent()).toMatch(/of .*\(\d+(\.\d)?%\)/);
      expect(await page.getByTestId("monitor-processes").textContent()).toContain("teebox");
      expect(await page.getByTestId("club-status").textContent()).toContain("Demo club (built in)");
      const first = await page.getByTestId("monitor-updated").textContent();
      await page.waitForFunction((before) => document.querySelector("[data-testid=monitor-updated]")?.textContent !== before, first, { timeout: 15_000 });
      await saveScreenshot(page, "admin-monitor");
    } finally {
      await close();
    }
  }, 60_000);

  test("an admin creates, edits and deletes a user, a course, a booking window, a holiday and a rule", async () => {
    const { page, close } = await openAdmin();
    try {
      // Users
      await page.getByRole("tab", { name: "Users" }).click();
      await page.getByRole("button", { name: "Add User" }).click();
      await page.getByLabel("Username").fill("e2e-member");
      await page.getByLabel("Password", { exact: true }).fill("e2e-member");
      await page.getByLabel("Name", { exact: true }).fill("Eve Tester");
      await page.getByRole("button", { name: "Save" }).click();
      const userRow = page.getByTestId("user-row-e2e-member");
      await userRow.waitFor();
      await userRow.getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("Name", { exact: true }).fill("Eve Edited");
      await page.getByRole("button", { name: "Save" }).click();
      await userRow.getByText("Eve Edited").waitFor();
      await userRow.getByRole("button", { name: "Delete" }).click();
      await confirmDelete(page);
      await userRow.waitFor({ state: "detached" });

      // Courses
      await page.getByRole("tab", { name: "Courses" }).click();
      const courses = page.getByTestId("admin-courses");
      await courses.getByRole("button", { name: "Add Course" }).click();
      await courses.getByLabel("ID", { exact: true }).fill("palms");
      await courses.getByLabel("Name", { exact: true }).fill("Palms");
      await courses.getByRole("button", { name: "Mon" }).click();
      await courses.getByRole("button", { name: "Save" }).click();
      const palms = courses.locator("tr", { hasText: "palms" });
      await palms.getByText("Mon").waitFor();
      await palms.getByRole("button", { name: "Edit" }).click();
      await courses.getByLabel("Name", { exact: true }).fill("Palm Links");
      await courses.getByRole("button", { name: "Save" }).click();
      await courses.locator("tr", { hasText: "Palm Links" }).waitFor();
      await courses.locator("tr", { hasText: "Palm Links" }).getByRole("button", { name: "Delete" }).click();
      await confirmDelete(page);
      await courses.locator("tr", { hasText: "Palm Links" }).waitFor({ state: "detached" });

      // Booking windows
      await page.getByRole("tab", { name: "Booking Windows" }).click();
      const windows = page.getByTestId("admin-windows");
      await windows.locator("tbody tr").first().waitFor();
      await windows.getByRole("button", { name: "Add Window" }).click();
      await windows.getByLabel("Rule key").fill("sunday_legends");
      await windows.getByLabel("Start", { exact: true }).fill("13:00");
      await windows.getByLabel("End", { exact: true }).fill("14:00");
      await windows.getByRole("button", { name: "Save" }).click();
      const added = windows.locator("tr", { hasText: "13:00" });
      await added.getByText("SUNDAY_LEGENDS").waitFor();
      await added.getByRole("button", { name: "Edit" }).click();
      await windows.getByLabel("End", { exact: true }).fill("14:30");
      await windows.getByRole("button", { name: "Save" }).click();
      const edited = windows.locator("tr", { hasText: "14:30" });
      await edited.waitFor();
      await edited.getByRole("button", { name: "Delete" }).click();
      await confirmDelete(page);
      await edited.waitFor({ state: "detached" });

      // Guest rules: a holiday
      await page.getByRole("tab", { name: "Guest Rules" }).click();
      const holidays = page.getByTestId("admin-holidays");
      await holidays.getByLabel("Date").fill("2026-12-25");
      await holidays.getByLabel("Name (optional)").fill("Christmas");
      await holidays.getByRole("button", { name: "Add Holiday" }).click();
      const christmas = holidays.locator("li", { hasText: "Dec 25, 2026" });
      await christmas.getByText("Christmas").waitFor();
      await christmas.getByRole("button", { name: "Edit" }).click();
      await christmas.getByLabel("Name (optional)").fill("Christmas Day");
      await christmas.getByRole("button", { name: "Save" }).click();
      await christmas.getByText("Christmas Day").waitFor();
      await christmas.getByRole("button", { name: "Delete" }).click();
      await page.getByText("Are you sure you want to delete this holiday? This action cannot be undone.").waitFor();
      await confirmDelete(page);
      await christmas.waitFor({ state: "detached" });

      // Guest rules: a rule
      await page.getByRole("button", { name: "Add Rule" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Rule" });
      await dialog.getByRole("button", { name: "Sat" }).click();
      await dialog.getByLabel("Max Guests").fill("2");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      const rules = page.getByTestId("admin-rules");
      const rule = rules.locator("tbody tr", { hasText: "Sat" });
      await rule.waitFor();
      expect(await rule.locator("td").allTextContents()).toEqual(["10", "Sat", "05:00 - 17:00", "2", "1", "4", "EditDelete"]);
      await rule.getByRole("button", { name: "Edit" }).click();
      const editDialog = page.getByRole("dialog", { name: "Edit Rule" });
      await editDialog.getByLabel("Priority").fill("3");
      await editDialog.getByRole("button", { name: "Save" }).click();
      await editDialog.waitFor({ state: "detached" });
      await rules.locator("tbody tr", { hasText: "Sat" }).locator("td").first().getByText("3").waitFor();
      await rules.locator("tbody tr", { hasText: "Sat" }).getByRole("button", { name: "Delete" }).click();
      await confirmDelete(page);
      await rules.locator("tbody tr", { hasText: "Sat" }).waitFor({ state: "detached" });
      await saveScreenshot(page, "admin-guest-rules");
    } finally {
      await close();
    }
  }, 60_000);

  test("on a 390 px phone every admin table is cards: nothing scrolls sideways, every button whole and 44 px tall", async () => {
    const { context, page } = await openPage(browser, server, { hasSeenWelcome: true, viewport: { width: 390, height: 844 } });
    try {
      await page.goto("/login");
      await signIn(page, ADMIN_USERNAME, server.adminPassword);
      await page.goto("/admin");
      await page.getByRole("heading", { name: "Admin", level: 1 }).waitFor();
      const tables: [tab: string, testId: string, openRow: string | null][] = [
        ["System Monitor", "monitor-processes", null],
        ["Users", "admin-users", "Add User"],
        ["Courses", "admin-courses", "Edit"],
        ["Booking Windows", "admin-windows", "Edit"],
        ["Guest Rules", "admin-rules", null],
        ["Frontpage Content", "admin-frontpage", "Add Advisory"],
      ];
      for (const [tab, testId, openRow] of tables) {
        await page.getByRole("tab", { name: tab }).click();
        const table = page.getByTestId(testId);
        await table.locator("tbody tr").first().waitFor();
        // An open edit row has the widest cells (inputs, selects, Save and Cancel).
        if (openRow) await table.getByRole("button", { name: openRow }).first().click();
        const problems = await page.evaluate((id) => {
          const found: string[] = [];
          const width = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth > width) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
          const root = document.querySelector(`[data-testid="${id}"]`)!;
          const table = root.matches("table") ? root : root.querySelector("table")!;
          const wrap = table.parentElement!;
          if (wrap.scrollWidth > wrap.clientWidth) found.push("the table scrolls sideways");
          const rows = [...table.querySelectorAll("tbody tr")];
          if (rows.some((row) => getComputedStyle(row).display !== "block")) found.push("rows are not cards");
          for (const cell of table.querySelectorAll("tbody td[data-label]")) {
            if (getComputedStyle(cell, "::before").content !== `"${cell.getAttribute("data-label")}"`) found.push(`a cell has no label: ${cell.textContent}`);
          }
          for (const row of rows) {
            const box = row.getBoundingClientRect();
            if (box.left < 0 || box.right > width + 0.5) found.push(`a card runs off screen: ${Math.round(box.left)}..${Math.round(box.right)}`);
          }
          for (const button of table.querySelectorAll("button")) {
            const box = button.getBoundingClientRect();
            if (Math.round(box.height) < 44) found.push(`${button.textContent} is ${box.height} px tall`);
            if (box.left < 0 || box.right > width + 0.5) found.push(`${button.textContent} is not fully on screen`);
          }
          return found;
        }, testId);
        expect({ table: testId, problems }).toEqual({ table: testId, problems: [] });
        await saveScreenshot(page, `admin-390-${testId}`);
        if (openRow) await table.getByRole("button", { name: "Cancel" }).click();
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a saved UI text shows up in a second open page without a reload", async () => {
    const first = await openAdmin();
    const second = await openAdmin();
    try {
      await second.page.getByRole("tab", { name: "Users" }).waitFor();
      const marker = await second.page.evaluate(() => {
        (window as unknown as { marker: number }).marker = 42;
        return 42;
      });
      await first.page.getByRole("tab", { name: "UI Text" }).click();
      await first.page.getByLabel("Filter keys or text").fill("admin.tab.users");
      await first.page.getByLabel("admin.tab.users").fill("Members");
      await first.page.getByRole("button", { name: "Save UI Text" }).click();
      await first.page.getByText("UI text saved").waitFor();
      await second.page.getByRole("tab", { name: "Members" }).waitFor();
      expect(await second.page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});
