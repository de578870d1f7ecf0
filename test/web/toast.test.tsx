import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { useTextStore } from "../../web/lib/text-store.ts";
import { setToastTimer, showToast, TOAST_DURATION_MS, useToastStore, type ToastTimer } from "../../web/lib/toast-store.ts";

/** A hand-driven timer: `elapse(ms)` fires what is due. */
function manualTimer() {
  let now = 0;
  let nextHandle = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timer: ToastTimer = {
    set(callback, ms) {
      const handle = nextHandle++;
      pending.set(handle, { at: now + ms, callback });
      return handle;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  function elapse(ms: number) {
    now += ms;
    for (const [handle, entry] of [...pending]) {
      if (entry.at <= now) {
        pending.delete(handle);
        act(() => entry.callback());
      }
    }
  }
  return { timer, elapse, pendingCount: () => pending.size };
}

let clock: ReturnType<typeof manualTimer>;

beforeEach(() => {
  clock = manualTimer();
  setToastTimer(clock.timer);
  useTextStore.setState({ overrides: {} });
});

afterEach(() => {
  act(() => useToastStore.getState().clearToasts());
  setToastTimer();
});

describe("toasts", () => {
  test("sit in the viewport and vanish after 5 seconds", () => {
    render(<ToastViewport />);
    act(() => void showToast("success", { message: "Saved" }));
    expect(screen.getByText("Saved")).toBeTruthy();
    expect(TOAST_DURATION_MS).toBe(5000);
    clock.elapse(4999);
    expect(screen.queryByText("Saved")).not.toBeNull();
    clock.elapse(1);
    expect(screen.queryByText("Saved")).toBeNull();
  });

  test("can be dismissed by hand, which also cancels the timer", () => {
    render(<ToastViewport />);
    act(() => void showToast("error", { message: "Oops" }));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByText("Oops")).toBeNull();
    expect(clock.pendingCount()).toBe(0);
  });

  test("errors are red alerts, successes green statuses", () => {
    render(<ToastViewport />);
    act(() => {
      showToast("error", { message: "Bad" });
      showToast("success", { message: "Good" });
    });
    expect(screen.getByRole("alert").className).toContain("toast--error");
    expect(screen.getByText("Good").closest(".toast")?.className).toContain("toast--success");
  });

  test("strip '[ERROR] ' from error text", () => {
    render(<ToastViewport />);
    act(() => void showToast("error", { message: "[ERROR] Club site is down" }));
    expect(screen.getByRole("alert").textContent).toContain("Club site is down");
    expect(screen.getByRole("alert").textContent).not.toContain("[ERROR]");
  });

  test("resolve a text key with {placeholder} context, preferring the admin's text", () => {
    useTextStore.setState({ overrides: { "test.toast.booked": "Booked {course} at {time}" } });
    render(<ToastViewport />);
    act(() => void showToast("success", { textKey: "test.toast.booked", context: { course: "North", time: "07:08" }, message: "fallback" }));
    expect(screen.getByText("Booked North at 07:08")).toBeTruthy();
  });

  test("use the catalogue default for a key without stored text, and the message for an unknown key", () => {
    render(<ToastViewport />);
    act(() => {
      showToast("success", { textKey: "toast.data_refreshed" });
      showToast("error", { textKey: "no.such.key", message: "Plain message" });
    });
    expect(screen.getByText("Data refreshed")).toBeTruthy();
    expect(screen.getByText("Plain message")).toBeTruthy();
  });

  test("fall back to the already filled message when a keyed text's placeholders have no values", () => {
    useTextStore.setState({ overrides: { "test.toast.guests": "Maximum of {maxGuests} guest(s) allowed." } });
    render(<ToastViewport />);
    act(() => void showToast("error", { textKey: "test.toast.guests", message: "Maximum of 2 guest(s) allowed." }));
    expect(screen.getByText("Maximum of 2 guest(s) allowed.")).toBeTruthy();
    expect(screen.queryByText(/\{maxGuests\}/)).toBeNull();
  });
});
