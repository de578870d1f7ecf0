/**
 * The keyed resource cache (web/lib/resources.ts): a key shown by several screens is loaded once,
 * a change reloads only the keys it names and only those on screen, a bare `status: updated`
 * reloads everything shown, and a key off screen is loaded again when a screen opens it.
 */
import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { act, render, waitFor, within } from "@testing-library/react";
import { StrictMode } from "react";
import type { ResourceKey } from "../../src/domain/resources.ts";
import { changedKeys, createResourceCache, onResourcesChanged, useResource, type ResourceCache } from "../../web/lib/resources.ts";
import type { ServerMessageListener, SocketClient } from "../../web/lib/socket.ts";
import type { ServerMessage } from "../../web/lib/types.ts";

/** A socket that delivers what the test says the server sent. */
function fakeSocket(): SocketClient & { receive(message: ServerMessage): void } {
  const listeners = new Set<ServerMessageListener>();
  return {
    connect: () => undefined,
    close: () => undefined,
    send: () => true,
    isOpen: () => true,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    receive(message) {
      for (const listener of [...listeners]) listener(message);
    },
  };
}

const changed = (...keys: ResourceKey[]): ServerMessage => ({ type: "status", status: "updated", changed: keys });

/** A loader that counts its calls and answers with the count. */
function counter() {
  const loader = { calls: 0, load: async () => ++loader.calls };
  return loader;
}

function Shows({ name, resource, load, cache }: { name: string; resource: ResourceKey; load: () => Promise<number>; cache: ResourceCache }) {
  const { data } = useResource(resource, load, cache);
  return <p data-testid={name}>{data === undefined ? "…" : `loaded ${data}`}</p>;
}

const text = (id: string) => within(document.body).getByTestId(id).textContent;

describe("the resource cache", () => {
  test("two screens showing one key share one load; a change reloads only what it names", async () => {
    const socket = fakeSocket();
    const cache = createResourceCache(socket);
    const watches = counter();
    const players = counter();
    render(
      <>
        <Shows name="a" resource="my.watches" load={watches.load} cache={cache} />
        <Shows name="b" resource="my.watches" load={watches.load} cache={cache} />
        <Shows name="c" resource="my.players" load={players.load} cache={cache} />
      </>,
    );
    await waitFor(() => expect([text("a"), text("b"), text("c")]).toEqual(["loaded 1", "loaded 1", "loaded 1"]));
    expect([watches.calls, players.calls]).toEqual([1, 1]);

    act(() => socket.receive(changed("my.watches", "my.bookings")));
    await waitFor(() => expect(text("a")).toBe("loaded 2"));
    expect(text("b")).toBe("loaded 2");
    expect([watches.calls, players.calls]).toEqual([2, 1]);

    // Other messages are not changes.
    act(() => socket.receive({ type: "toast", toast: { kind: "info", message: "hello" } }));
    act(() => socket.receive(changed("tee-times")));
    await cache.reload("my.players");
    expect([watches.calls, players.calls]).toEqual([2, 2]);
  });

  test("a screen mounted twice at once (StrictMode) loads its key once", async () => {
    const cache = createResourceCache(fakeSocket());
    const watches = counter();
    render(
      <StrictMode>
        <Shows name="a" resource="my.watches" load={watches.load} cache={cache} />
      </StrictMode>,
    );
    await waitFor(() => expect(text("a")).toBe("loaded 1"));
    await cache.reload("my.watches");
    expect(watches.calls).toBe(2);
  });

  test("a bare status: updated reloads every key on screen", async () => {
    const socket = fakeSocket();
    const cache = createResourceCache(socket);
    const watches = counter();
    const players = counter();
    render(
      <>
        <Shows name="a" resource="my.watches" load={watches.load} cache={cache} />
        <Shows name="c" resource="my.players" load={players.load} cache={cache} />
      </>,
    );
    await waitFor(() => expect([watches.calls, players.calls]).toEqual([1, 1]));
    act(() => socket.receive({ type: "status", status: "updated" }));
    await waitFor(() => expect([text("a"), text("c")]).toEqual(["loaded 2", "loaded 2"]));
  });

  test("a key no screen shows is not loaded when named; the next screen to show it loads it, showing the cached answer meanwhile", async () => {
    const socket = fakeSocket();
    const cache = createResourceCache(socket);
    const watches = counter();
    const first = render(<Shows name="a" resource="my.watches" load={watches.load} cache={cache} />);
    await waitFor(() => expect(text("a")).toBe("loaded 1"));
    first.unmount();

    act(() => socket.receive(changed("my.watches")));
    expect(watches.calls).toBe(1);
    let release!: () => void;
    const slow = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return watches.load();
    };
    render(<Shows name="a" resource="my.watches" load={slow} cache={cache} />);
    expect(text("a")).toBe("loaded 1");
    act(() => release());
    await waitFor(() => expect(text("a")).toBe("loaded 2"));
  });

  test("changes during a load make one more load after it, not one each", async () => {
    const socket = fakeSocket();
    const cache = createResourceCache(socket);
    let calls = 0;
    const gates: (() => void)[] = [];
    const load = async () => {
      calls++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return calls;
    };
    render(<Shows name="a" resource="my.requests" load={load} cache={cache} />);
    await waitFor(() => expect(calls).toBe(1));
    act(() => {
      socket.receive(changed("my.requests"));
      socket.receive(changed("my.requests"));
      socket.receive({ type: "status", status: "updated" });
    });
    expect(calls).toBe(1);
    await act(async () => gates.shift()?.());
    await waitFor(() => expect(calls).toBe(2));
    await act(async () => gates.shift()?.());
    await waitFor(() => expect(text("a")).toBe("loaded 2"));
    expect(calls).toBe(2);
  });

  test("a failed load keeps the last answer and says why; the next one clears it", async () => {
    const socket = fakeSocket();
    const cache = createResourceCache(socket);
    let fail = false;
    let calls = 0;
    const load = async () => {
      calls++;
      if (fail) throw new Error("offline");
      return calls;
    };
    render(<Shows name="a" resource="my.bookings" load={load} cache={cache} />);
    await waitFor(() => expect(text("a")).toBe("loaded 1"));
    fail = true;
    await act(() => cache.reload("my.bookings"));
    expect(cache.read("my.bookings")).toMatchObject({ data: 1, error: new Error("offline") });
    fail = false;
    await act(() => cache.reload("my.bookings"));
    expect(cache.read("my.bookings")).toMatchObject({ data: 3, error: null });
  });

  test("sign-out forgets every answer", async () => {
    const cache = createResourceCache(fakeSocket());
    const watches = counter();
    const shown = render(<Shows name="a" resource="my.watches" load={watches.load} cache={cache} />);
    await waitFor(() => expect(text("a")).toBe("loaded 1"));
    shown.unmount();
    cache.clear();
    expect(cache.read("my.watches").data).toBeUndefined();
  });
});

describe("what a message says changed", () => {
  test("named keys, everything for a bare status: updated, nothing for other messages", () => {
    expect(changedKeys(changed("my.bookings"))).toEqual(["my.bookings"]);
    expect(changedKeys({ type: "status", status: "updated" })).toBeNull();
    expect(changedKeys({ type: "uiTextUpdated" })).toEqual([]);
  });

  test("onResourcesChanged runs for its keys and for a bare status: updated only", () => {
    const socket = fakeSocket();
    let runs = 0;
    const stop = onResourcesChanged(["my.notifications"], () => runs++, socket);
    socket.receive(changed("my.requests"));
    socket.receive(changed("my.requests", "my.notifications"));
    socket.receive({ type: "status", status: "updated" });
    stop();
    socket.receive({ type: "status", status: "updated" });
    expect(runs).toBe(2);
  });
});
