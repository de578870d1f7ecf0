/**
 * The web's keyed resource cache (decision 177). The server names what a change touched
 * (`status: updated` with `changed`, keys in src/domain/resources.ts); each key here has one loader
 * and one cached answer, shared by every screen that shows it, and only the keys a message names
 * are loaded again. A bare `status: updated` (a server that names nothing, or the socket coming
 * back after a drop, when anything may have changed) reloads every key on screen.
 *
 * A key is loaded when its first screen opens (a cached answer shows meanwhile), and again when a
 * change names it while a screen shows it; a key no screen shows is only marked stale, and loaded
 * when one opens. The cache holds one entry per key: bounded by the list of keys.
 */
import { useCallback, useRef, useSyncExternalStore } from "react";
import type { ResourceKey } from "../../src/domain/resources.ts";
import { appSocket, type SocketClient } from "./socket.ts";
import type { ServerMessage } from "./types.ts";

/** The keys a server message says changed: null for everything (a bare `status: updated`), [] when it is not a change at all. */
export function changedKeys(message: ServerMessage): readonly ResourceKey[] | null {
  if (message.type !== "status" || message.status !== "updated") return [];
  return message.changed && message.changed.length > 0 ? message.changed : null;
}

/** Runs `listener` when a change names one of `keys`, or names nothing (everything may have changed). */
export function onResourcesChanged(keys: readonly ResourceKey[], listener: () => void, client: SocketClient = appSocket): () => void {
  return client.subscribe((message) => {
    const named = changedKeys(message);
    if (named === null || named.some((key) => keys.includes(key))) listener();
  });
}

export interface ResourceState<T> {
  /** The last answer (undefined until the first one lands). */
  data: T | undefined;
  /** The last load's failure, cleared by the next answer. */
  error: unknown;
  isLoading: boolean;
}

interface Entry {
  state: ResourceState<unknown>;
  load: () => Promise<unknown>;
  /** The load in flight; a reload asked for meanwhile runs once it ends. */
  running: Promise<void> | null;
  isReloadWanted: boolean;
  isStale: boolean;
  listeners: Set<() => void>;
}

export interface ResourceCache {
  /** The key's state now (a fresh one when nothing was loaded for it yet). */
  read(key: ResourceKey): ResourceState<unknown>;
  /** Watches a key; the first watcher of a key with no answer, or a stale one, loads it. */
  subscribe(key: ResourceKey, load: () => Promise<unknown>, listener: () => void): () => void;
  /** Loads the key again (one load at a time per key; a call meanwhile makes one more follow). */
  reload(key: ResourceKey): Promise<void>;
  /** The keys a change named (null: all): those on screen load again, the others are stale. */
  invalidate(keys: readonly ResourceKey[] | null): void;
  /** Forgets every answer (sign-out). */
  clear(): void;
}

const EMPTY: ResourceState<unknown> = { data: undefined, error: null, isLoading: false };

export function createResourceCache(client: SocketClient = appSocket): ResourceCache {
  const entries = new Map<ResourceKey, Entry>();

  const set = (entry: Entry, state: Partial<ResourceState<unknown>>) => {
    entry.state = { ...entry.state, ...state };
    for (const listener of [...entry.listeners]) listener();
  };

  function reloadEntry(entry: Entry): Promise<void> {
    entry.isStale = false;
    if (entry.running) {
      entry.isReloadWanted = true;
      return entry.running;
    }
    entry.running = (async () => {
      do {
        entry.isReloadWanted = false;
        set(entry, { isLoading: true });
        try {
          set(entry, { data: await entry.load(), error: null, isLoading: false });
        } catch (error) {
          set(entry, { error, isLoading: false });
        }
      } while (entry.isReloadWanted);
    })().finally(() => {
      entry.running = null;
    });
    return entry.running;
  }

  const cache: ResourceCache = {
    read: (key) => entries.get(key)?.state ?? EMPTY,
    subscribe(key, load, listener) {
      let entry = entries.get(key);
      if (!entry) {
        entry = { state: EMPTY, load, running: null, isReloadWanted: false, isStale: true, listeners: new Set() };
        entries.set(key, entry);
      }
      entry.load = load;
      const isFirst = entry.listeners.size === 0;
      entry.listeners.add(listener);
      // A screen opening shows the cached answer and asks again: it may have changed while nothing
      // showed it. A load already running serves it, followed by one more if a change came meanwhile.
      if (entry.running) {
        if (entry.isStale) entry.isReloadWanted = true;
        entry.isStale = false;
      } else if (isFirst || entry.isStale) void reloadEntry(entry);
      const current = entry;
      return () => {
        current.listeners.delete(listener);
      };
    },
    reload(key) {
      const entry = entries.get(key);
      return entry ? reloadEntry(entry) : Promise.resolve();
    },
    invalidate(keys) {
      for (const [key, entry] of entries) {
        if (keys !== null && !keys.includes(key)) continue;
        if (entry.listeners.size > 0) void reloadEntry(entry);
        else entry.isStale = true;
      }
    },
    clear() {
      for (const entry of entries.values()) set(entry, { ...EMPTY });
      for (const [key, entry] of entries) if (entry.listeners.size === 0) entries.delete(key);
    },
  };

  client.subscribe((message) => {
    const named = changedKeys(message);
    if (named === null || named.length > 0) cache.invalidate(named);
  });
  return cache;
}

/** The app's one cache, fed by the app's socket. */
export const resourceCache: ResourceCache = createResourceCache(appSocket);

/**
 * One resource for a screen: its cached answer, its last failure, and `reload` (after the member
 * changed it here). `load` is the key's loader; every screen that shows a key gives the same one.
 */
export function useResource<T>(key: ResourceKey, load: () => Promise<T>, cache: ResourceCache = resourceCache): ResourceState<T> & { reload(): Promise<void> } {
  // The loader of the last render: a new function each render must not subscribe (and load) again.
  const loader = useRef(load);
  loader.current = load;
  const subscribe = useCallback((listener: () => void) => cache.subscribe(key, () => loader.current(), listener), [cache, key]);
  const state = useSyncExternalStore(subscribe, () => cache.read(key)) as ResourceState<T>;
  const reload = useCallback(() => cache.reload(key), [cache, key]);
  return { ...state, reload };
}
