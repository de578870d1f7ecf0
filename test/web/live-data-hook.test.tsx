/** Screens read the live data through useLiveData: an update re-renders as a transition, with the new value. */
import "../helpers/dom.ts";
import { afterEach, expect, test } from "bun:test";
import { act, render, screen } from "@testing-library/react";
import { shallow } from "zustand/vanilla/shallow";
import { useLiveData, useLiveDataStore } from "../../web/lib/live-data-store.ts";

afterEach(() => useLiveDataStore.getState().clearLiveData());

test("a screen shows the store's value and follows its updates", async () => {
  useLiveDataStore.setState({ lastScrapeTime: 1000 });
  function LastScrape() {
    const lastScrapeTime = useLiveData((s) => s.lastScrapeTime);
    return <p>scraped at {String(lastScrapeTime)}</p>;
  }
  render(<LastScrape />);
  expect(screen.getByText("scraped at 1000")).toBeTruthy();
  await act(async () => useLiveDataStore.getState().setLastScrapeTime(2000));
  expect(screen.getByText("scraped at 2000")).toBeTruthy();
});

test("an update the selection does not see (or sees as equal) renders nothing", async () => {
  let renders = 0;
  function Lists() {
    renders++;
    const lists = useLiveData((s) => ({ bookings: s.bookings, requests: s.requests }), shallow);
    return <p>{lists.bookings.length + lists.requests.length} items</p>;
  }
  render(<Lists />);
  const before = renders;
  await act(async () => useLiveDataStore.getState().setLastScrapeTime(3000));
  expect(renders).toBe(before);
  expect(screen.getByText("0 items")).toBeTruthy();
});
