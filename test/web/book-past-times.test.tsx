import "../helpers/dom.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { fireEvent, screen } from "@testing-library/react";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { member, MONDAY, renderScreens, resetBookTest, serveApi, setLiveData, setViewportWidth } from "./book-fixtures.tsx";

beforeEach(() => {
  serveApi();
  setLiveData();
  setViewportWidth(1280);
});
afterEach(resetBookTest);

const slotButton = (time: string) => document.querySelector<HTMLButtonElement>(`[data-time="${time}"]`)!;

test("the time step disables today's times that have already passed (Manila), and only those", () => {
  // Monday 06:10 in Manila, whatever the zone the browser runs in.
  renderScreens("/book", member, manilaInstant(MONDAY, "06:10"));
  fireEvent.click(document.querySelector<HTMLButtonElement>(`[data-date="${MONDAY}"]`)!);
  fireEvent.click(screen.getByRole("button", { name: /^Masters/ }));
  expect(slotButton("06:00").disabled).toBe(true);
  expect(slotButton("06:00").title).toBe("This time has already passed.");
  expect(slotButton("06:24").disabled).toBe(false);
  expect(slotButton("12:00").disabled).toBe(false);
  fireEvent.click(slotButton("06:00"));
  expect(slotButton("06:00").getAttribute("aria-pressed")).toBe("false");
});
