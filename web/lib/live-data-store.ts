/**
 * Live data shared by the header and the pages: tee times with the
 * last scrape time, the bookable dates, the booking rules, the advisories, and the member's
 * bookings, requests and saved players. Each is loaded under the resource key that names it
 * (src/domain/resources.ts): a change that names keys reloads only what they name, a bare
 * `status: updated` (or the socket coming back) everything. A failed load is only logged to the
 * console; the other loads still land.
 *
 * The stale-data checks ask the scraper for a run (RUN_SCRAPER) when the tab becomes visible and
 * the last scrape is older than 180 s or unknown, once per browser session on opening the Book
 * page, and after the first load when the data is older than smart_refresh_threshold_seconds.
 */
import { startTransition, useEffect, useRef, useState } from "react";
import { create } from "zustand";
import type { ConfirmedBookingView } from "../../src/domain/bookings-view.ts";
import type { DateEntry, TeeTimeDay } from "../../src/domain/date-kinds.ts";
import type { SavedPlayer } from "../../src/domain/players.ts";
import type { AdvisoriesResponse, RulesResponse } from "../../src/features/availability/availability.schemas.ts";
import type { RequestRow } from "../../src/features/bookings/bookings-responses.schemas.ts";
import { checkListInSlices, getJson, withCacheBuster, type Readable, type ResponseSchema } from "./api.ts";
import type { AnswerAt, ApiUrl } from "./api-contracts.ts";
import { apiPaths } from "./api-paths.ts";
import type { ResourceKey } from "../../src/domain/resources.ts";
import { changedKeys } from "./resources.ts";
import { appSocket, type SocketClient } from "./socket.ts";
import { showToast } from "./toast-store.ts";

/** The tab-visible check asks for a scrape when the last one is older than this. */
export const STALE_ON_VISIBLE_MS = 180_000;
/** Session storage flag: the Book page has asked for its once-per-session scrape. */
export const BOOK_OPEN_SCRAPE_KEY = "scrapeRequestedOnBookOpen";
const SCRAPE_RETRY_MS = 500;
const SCRAPE_RETRY_LIMIT = 20;

interface LiveData {
  teeTimes: TeeTimeDay[];
  /** Epoch ms of the last scrape of the club's tee sheet; null when unknown. */
  lastScrapeTime: number | null;
  dates: DateEntry[];
  rules: RulesResponse | null;
  advisories: AdvisoriesResponse | null;
  bookings: ConfirmedBookingView[];
  requests: RequestRow[];
  savedPlayers: SavedPlayer[];
  /** True once a full load has finished, whatever part of it failed. */
  hasLoaded: boolean;
  isLoading: boolean;
}

interface LiveDataState extends LiveData {
  /** Loads everything; a call while a load runs makes one more load follow it. */
  loadAll(): Promise<void>;
  /** Loads what these keys name (null: everything); a call while a load runs makes one more follow it, for every key asked meanwhile. */
  reload(keys: readonly ResourceKey[] | null): Promise<void>;
  setLastScrapeTime(lastScrapeTime: number | null): void;
  setBookings(bookings: ConfirmedBookingView[]): void;
  setRequests(requests: RequestRow[]): void;
  setSavedPlayers(savedPlayers: SavedPlayer[]): void;
  clearLiveData(): void;
}

const EMPTY: LiveData = {
  teeTimes: [],
  lastScrapeTime: null,
  dates: [],
  rules: null,
  advisories: null,
  bookings: [],
  requests: [],
  savedPlayers: [],
  hasLoaded: false,
  isLoading: false,
};

/** Data-fetch failures are logged to the console and shown to no one. */
async function load<U extends ApiUrl<"GET">, T extends Readable<AnswerAt<U, "GET">>>(what: string, url: U, schema: ResponseSchema<T>, apply: (value: T) => unknown): Promise<void> {
  try {
    await apply(await getJson(url, schema));
  } catch (error) {
    console.error(`Failed to load ${what}`, error);
  }
}

let running: Promise<void> | null = null;
/** What the load after the running one reloads: null for everything, else the keys asked for meanwhile. */
let wanted: Set<ResourceKey> | null | undefined;

/** The parts of the live data each key names. */
type Part = "teeTimes" | "dates" | "rules" | "advisories" | "bookings" | "requests" | "savedPlayers";
const PARTS_OF: Partial<Record<ResourceKey, readonly Part[]>> = {
  // The bookable dates follow the tee sheets read and the settings.
  "tee-times": ["teeTimes", "dates"],
  settings: ["rules", "dates"],
  advisories: ["advisories"],
  "my.bookings": ["bookings"],
  "my.requests": ["requests"],
  "my.players": ["savedPlayers"],
};
const ALL_PARTS: readonly Part[] = ["teeTimes", "dates", "rules", "advisories", "bookings", "requests", "savedPlayers"];

function partsOf(keys: ReadonlySet<ResourceKey> | null): Set<Part> {
  if (keys === null) return new Set(ALL_PARTS);
  return new Set([...keys].flatMap((key) => PARTS_OF[key] ?? []));
}

type LiveDataSchemas = typeof import("./live-data-schemas.ts");
let provideSchemas: (schemas: LiveDataSchemas) => void = () => undefined;
const schemasReady = new Promise<LiveDataSchemas>((resolve) => (provideSchemas = resolve));

/**
 * The schemas the answers are checked with (zod's core among them) come with the member area's
 * chunk (web/pages/member-area.ts), which provides them; the first bundle, and so the login page,
 * never carries them. Loads wait for them.
 */
export function provideLiveDataSchemas(schemas: LiveDataSchemas): void {
  provideSchemas(schemas);
}

export const useLiveDataStore = create<LiveDataState>()((set, get) => {
  async function loadOnce(keys: ReadonlySet<ResourceKey> | null): Promise<void> {
    const parts = partsOf(keys);
    if (parts.size === 0) return;
    const wants = (part: Part) => parts.has(part);
    set({ isLoading: true });
    const schemas = await schemasReady;
    const {
      advisoriesResponseSchema,
      bookingsResponseSchema,
      datesResponseSchema,
      requestsResponseSchema,
      rulesResponseSchema,
      savedPlayersResponseSchema,
      teeTimeDaySchema,
      teeTimesEnvelopeSchema,
    } = schemas;
    // Every answer is gathered first and applied in one update: one render of the screens for a
    // whole reload instead of one per answer (a phone's main thread notices seven).
    const loaded: Partial<LiveData> = {};
    const teeTimesUrl = withCacheBuster(apiPaths.teeTimes);
    await Promise.all([
      wants("teeTimes") &&
        load("tee times", teeTimesUrl, teeTimesEnvelopeSchema, async (value) => {
          loaded.teeTimes = await checkListInSlices(teeTimesUrl, "teeTimes", value.teeTimes, teeTimeDaySchema);
          loaded.lastScrapeTime = value.lastScrapeTime;
        }),
      wants("dates") && load("dates", apiPaths.system.dates, datesResponseSchema, (dates) => (loaded.dates = dates)),
      wants("rules") && load("booking rules", apiPaths.system.rules, rulesResponseSchema, (rules) => (loaded.rules = rules)),
      wants("advisories") && load("advisories", withCacheBuster(apiPaths.advisories), advisoriesResponseSchema, (advisories) => (loaded.advisories = advisories)),
      wants("bookings") && load("bookings", withCacheBuster(apiPaths.my.bookings), bookingsResponseSchema, (bookings) => (loaded.bookings = bookings)),
      wants("requests") && load("requests", withCacheBuster(apiPaths.my.requests), requestsResponseSchema, (requests) => (loaded.requests = requests)),
      wants("savedPlayers") && load("saved players", withCacheBuster(apiPaths.my.players), savedPlayersResponseSchema, (savedPlayers) => (loaded.savedPlayers = savedPlayers)),
    ]);
    const lastScrapeTime = "lastScrapeTime" in loaded ? newer(get().lastScrapeTime, loaded.lastScrapeTime ?? null) : get().lastScrapeTime;
    // A partial reload before the first full one does not count as the first load.
    set({ ...loaded, lastScrapeTime, hasLoaded: get().hasLoaded || keys === null, isLoading: false });
  }

  function reload(keys: readonly ResourceKey[] | null): Promise<void> {
    if (running) {
      // One more load follows the running one, for everything asked meanwhile.
      if (keys === null || wanted === null) wanted = null;
      else wanted = new Set([...(wanted ?? []), ...keys]);
      return running;
    }
    running = (async () => {
      let next: ReadonlySet<ResourceKey> | null = keys === null ? null : new Set(keys);
      for (;;) {
        wanted = undefined;
        await loadOnce(next);
        if (wanted === undefined) break;
        next = wanted;
      }
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    ...EMPTY,
    loadAll: () => reload(null),
    reload,
    setLastScrapeTime: (lastScrapeTime) => set({ lastScrapeTime }),
    setBookings: (bookings) => set({ bookings }),
    setRequests: (requests) => set({ requests }),
    setSavedPlayers: (savedPlayers) => set({ savedPlayers }),
    clearLiveData: () => set({ ...EMPTY }),
  };
});

/**
 * Reads the live data for a screen. Unlike the store's own hook (whose updates always render at
 * once, in one piece), an update here re-renders as a transition: React renders it in slices and
 * keeps the page responsive while a reload's answers land. `isEqual` compares the selected values
 * (zustand's `shallow` for a selector that builds an object).
 */
export function useLiveData<T>(selector: (state: LiveDataState) => T, isEqual: (a: T, b: T) => boolean = Object.is): T {
  const [value, setValue] = useState(() => selector(useLiveDataStore.getState()));
  const read = useRef({ selector, isEqual });
  read.current = { selector, isEqual };
  useEffect(() => {
    const update = () => {
      const next = read.current.selector(useLiveDataStore.getState());
      startTransition(() => setValue((current) => (read.current.isEqual(current, next) ? current : next)));
    };
    // The store may have changed between the render and this subscription.
    update();
    return useLiveDataStore.subscribe(update);
  }, []);
  return value;
}

/** The later of two scrape times (a scraper answer may arrive before the reload that carries it). */
function newer(current: number | null, candidate: number | null): number | null {
  if (candidate == null) return current;
  return current == null || candidate > current ? candidate : current;
}

export function isScrapeStale(lastScrapeTime: number | null, nowMs: number, maxAgeMs: number): boolean {
  return lastScrapeTime == null || nowMs - lastScrapeTime > maxAgeMs;
}

let retryHandle: ReturnType<typeof setTimeout> | undefined;

/**
 * Asks the server for a scrape. The socket may still be connecting (a page opened directly), so
 * an unsent request is retried for a few seconds; the server throttles repeated asks anyway.
 */
export function requestScrape(client: SocketClient = appSocket, attempt = 0): void {
  if (retryHandle !== undefined) clearTimeout(retryHandle);
  retryHandle = undefined;
  if (client.send("RUN_SCRAPER")) return;
  if (attempt < SCRAPE_RETRY_LIMIT) retryHandle = setTimeout(() => requestScrape(client, attempt + 1), SCRAPE_RETRY_MS);
}

export function cancelScrapeRetry(): void {
  if (retryHandle !== undefined) clearTimeout(retryHandle);
  retryHandle = undefined;
}

/** The manual refresh: asks for a scrape, reloads everything, then says 'data refreshed'. */
export async function refreshLiveData(client: SocketClient = appSocket): Promise<void> {
  requestScrape(client);
  await useLiveDataStore.getState().loadAll();
  showToast("success", { textKey: "toast.data_refreshed", message: "Data refreshed" });
}

function smartRefreshThresholdMs(): number | null {
  const seconds = useLiveDataStore.getState().rules?.appSettings.smart_refresh_threshold_seconds;
  return typeof seconds === "number" ? seconds * 1000 : null;
}

/**
 * Keeps the store in sync while the signed-in layout is shown: the first load (then the
 * smart-refresh check), reloads of what each change names, scrape times from the scraper's answers,
 * and the stale check when the tab becomes visible.
 */
export function useLiveDataSync(client: SocketClient = appSocket, now: () => number = Date.now): void {
  useEffect(() => {
    let isActive = true;
    const store = useLiveDataStore.getState;
    void store()
      .loadAll()
      .then(() => {
        const threshold = smartRefreshThresholdMs();
        if (isActive && threshold !== null && isScrapeStale(store().lastScrapeTime, now(), threshold)) requestScrape(client);
      });
    const stopRefresh = client.subscribe((message) => {
      const keys = changedKeys(message);
      if (keys === null || keys.length > 0) void store().reload(keys);
    });
    const stopScraper = client.subscribe((message) => {
      if (message.type === "scraper") store().setLastScrapeTime(newer(store().lastScrapeTime, message.lastScrapeTime));
    });
    const onVisibility = () => {
      if (document.visibilityState === "visible" && isScrapeStale(store().lastScrapeTime, now(), STALE_ON_VISIBLE_MS)) requestScrape(client);
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      isActive = false;
      stopRefresh();
      stopScraper();
      document.removeEventListener("visibilitychange", onVisibility);
      cancelScrapeRetry();
    };
  }, [client, now]);
}

function hasAskedOnBookOpen(): boolean {
  try {
    if (sessionStorage.getItem(BOOK_OPEN_SCRAPE_KEY) === "1") return true;
    sessionStorage.setItem(BOOK_OPEN_SCRAPE_KEY, "1");
    return false;
  } catch {
    // Without session storage (private mode) asking on every open is the safe side: the server throttles.
    return false;
  }
}

/** The Book page asks for a scrape once per browser session when it opens. */
export function useScrapeOnBookOpen(client: SocketClient = appSocket): void {
  useEffect(() => {
    if (!hasAskedOnBookOpen()) requestScrape(client);
  }, [client]);
}
