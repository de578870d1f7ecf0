import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { authStatusSchema } from "../../src/features/auth/auth-responses.schemas.ts";
import { ApiError, apiRequest, checkListInSlices, getJson, InvalidResponseError, setApiDependencies } from "../../web/lib/api.ts";
import { teeTimeDaySchema } from "../../src/domain/record-schemas.ts";
import type { ClientLogger, ClientLogLevel, LogContext } from "../../web/lib/client-log.ts";
import { emptyResponse, jsonResponse, mockFetch, restoreFetch, type FetchHandler } from "./support/fetch-mock.ts";

interface Entry {
  level: ClientLogLevel;
  message: string;
  context: LogContext;
}

let entries: Entry[];
let navigations: string[];
let currentPath: string;

function recordingLogger(): ClientLogger {
  const log = (level: ClientLogLevel, message: string, context: LogContext = {}) => entries.push({ level, message, context });
  return {
    log,
    debug: (m, c) => log("debug", m, c),
    info: (m, c) => log("info", m, c),
    warn: (m, c) => log("warn", m, c),
    error: (m, c) => log("error", m, c),
    isEnabled: () => true,
    flush: async () => {},
  };
}

function serve(handler: FetchHandler) {
  const calls = mockFetch(handler);
  // Each call takes exactly 12.3456 ms on this clock.
  let tick = 0;
  setApiDependencies({
    fetch: (input, init) => globalThis.fetch(input, init),
    logger: recordingLogger(),
    now: () => (tick++ % 2 === 0 ? 1000 : 1012.3456),
    navigate: (url) => navigations.push(url),
    currentPath: () => currentPath,
  });
  return calls;
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

beforeEach(() => {
  entries = [];
  navigations = [];
  currentPath = "/book";
});

afterEach(() => {
  setApiDependencies();
  restoreFetch();
});

describe("apiRequest", () => {
  test("sends JSON headers and same-origin credentials, GET by default", async () => {
    const calls = serve(() => jsonResponse({ ok: true }));
    expect(await apiRequest("/v1/my/players")).toEqual({ ok: true });
    expect(calls[0].method).toBe("GET");
    expect(calls[0].headers["content-type"]).toBe("application/json");
    expect(calls[0].headers.accept).toBe("application/json");
    expect(calls[0].init?.credentials).toBe("same-origin");
    expect(calls[0].body).toBeUndefined();
  });

  test("serialises the body as JSON", async () => {
    const calls = serve(() => jsonResponse({ id: 1 }, 201));
    await apiRequest("/v1/admin/users", { method: "POST", body: { name: "Ana" } });
    expect(calls[0].method).toBe("POST");
    expect(calls[0].body).toEqual({ name: "Ana" });
  });

  test("returns undefined on 204", async () => {
    serve(() => emptyResponse(204));
    expect(await apiRequest("/v1/auth/logout", { method: "POST" })).toBeUndefined();
  });

  test("logs 'API Call Success' with method, url, status and the duration to 2 decimals", async () => {
    serve(() => jsonResponse([]));
    await apiRequest("/v1/my/bookings");
    expect(entries).toEqual([{ level: "info", message: "API Call Success", context: { method: "GET", url: "/v1/my/bookings", status: 200, duration: "12.35ms" } }]);
  });

  describe("error text", () => {
    test("is the server's message first", async () => {
      serve(() => jsonResponse({ message: "Slot taken.", errorKey: "booking.slot_taken" }, 409));
      const error = await failureOf(apiRequest("/v1/my/players"));
      expect(error.message).toBe("Slot taken.");
      expect(error.errorKey).toBe("booking.slot_taken");
      expect(error.status).toBe(409);
    });

    test("else the errorKey", async () => {
      serve(() => jsonResponse({ errorKey: "booking.slot_taken" }, 409));
      expect((await failureOf(apiRequest("/v1/my/players"))).message).toBe("booking.slot_taken");
    });

    test("else 'Request failed with status {status}', also for a body that is not JSON", async () => {
      serve(() => new Response("<html>bad gateway</html>", { status: 502 }));
      expect((await failureOf(apiRequest("/v1/my/players"))).message).toBe("Request failed with status 502");
    });
  });

  test("logs 'API Call Failed' with method, url, status, duration and message, and rethrows", async () => {
    serve(() => jsonResponse({ message: "Nope" }, 500));
    await failureOf(apiRequest("/v1/admin/ui-text", { method: "PUT", body: {} }));
    expect(entries).toEqual([
      { level: "error", message: "API Call Failed", context: { method: "PUT", url: "/v1/admin/ui-text", status: 500, duration: "12.35ms", message: "Nope" } },
    ]);
    expect(navigations).toEqual([]);
  });

  test("on 401 logs 'API Call Auth Failure', navigates to /login in full and rethrows", async () => {
    serve(() => jsonResponse({ message: "Not signed in." }, 401));
    const error = await failureOf(apiRequest("/v1/my/players"));
    expect(error.status).toBe(401);
    expect(navigations).toEqual(["/login"]);
    expect(entries.map((e) => [e.level, e.message])).toEqual([["warn", "API Call Auth Failure"]]);
  });

  test("on 401 while already on /login does not navigate", async () => {
    currentPath = "/login";
    serve(() => jsonResponse({ message: "Invalid username or password.", errorKey: "login.invalid_credentials" }, 401));
    const error = await failureOf(apiRequest("/v1/auth/login", { method: "POST", body: { username: "ana", password: "wrong" } }));
    expect(error.message).toBe("Invalid username or password.");
    expect(navigations).toEqual([]);
  });

  test("logs 'API Call Network Error' and rethrows the original error", async () => {
    serve(() => {
      throw new TypeError("Failed to fetch");
    });
    await expect(apiRequest("/v1/my/players")).rejects.toThrow("Failed to fetch");
    expect(entries).toHaveLength(1);
    expect(entries[0].level).toBe("error");
    expect(entries[0].message).toBe("API Call Network Error");
    expect(entries[0].context).toMatchObject({ method: "GET", url: "/v1/my/players", error: "Failed to fetch" });
  });
});

describe("answers are checked against their schema", () => {
  const user = {
    id: 7,
    username: "ana",
    name: "Ana Cruz",
    memberId: "M-1",
    southwoods_email: "ana@example.com",
    role: "user",
    status: "active",
    defaultCartType: "Rental Cart - Solo",
    defaultFeeGuest: "Charge my guest",
    defaultFeeMember: "Charge to their account",
    hasClubPassword: true,
    mustSetPassword: false,
  } as const;

  async function invalidAnswerOf(promise: Promise<unknown>): Promise<InvalidResponseError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof InvalidResponseError) return error;
      throw error;
    }
    throw new Error("expected the answer to be refused");
  }

  test("a matching answer is returned as the schema reads it", async () => {
    serve(() => jsonResponse({ isAuthenticated: true, user: { ...user, notForTheWeb: "dropped" } }));
    const status = await getJson("/v1/auth/status", authStatusSchema);
    expect(status).toEqual({ isAuthenticated: true, user });
  });

  test("a malformed answer is logged and raised as an error, never returned", async () => {
    serve(() => jsonResponse({ isAuthenticated: true, user: { ...user, role: "owner", id: "7" } }));
    const error = await invalidAnswerOf(getJson("/v1/auth/status", authStatusSchema));
    expect(error.message).toBe("The server's answer could not be read. Please try refreshing the page.");
    expect(error.errorKey).toBe("error.invalid_response");
    expect(error.status).toBe(200);
    expect(error.url).toBe("/v1/auth/status");
    expect(error.problems).toHaveLength(2);
    expect(error.problems.some((p) => p.startsWith("user.id: "))).toBe(true);
    expect(error.problems.some((p) => p.startsWith("user.role: "))).toBe(true);
    // The call itself succeeded; then the answer is refused.
    expect(entries.map((e) => [e.level, e.message])).toEqual([
      ["info", "API Call Success"],
      ["error", "API Call Invalid Response"],
    ]);
    expect(entries[1].context).toEqual({ method: "GET", url: "/v1/auth/status", status: 200, duration: "12.35ms", problems: error.problems });
    expect(navigations).toEqual([]);
  });

  test("an answer of the wrong kind altogether (a list for an object, nothing for a record) is refused", async () => {
    serve(() => jsonResponse([1, 2, 3]));
    expect((await invalidAnswerOf(getJson("/v1/auth/status", authStatusSchema))).problems).toHaveLength(1);
    serve(() => emptyResponse(204));
    await invalidAnswerOf(getJson("/v1/auth/status", authStatusSchema));
  });

  test("a success whose body is not JSON is refused with a clear error, with or without a schema", async () => {
    serve(() => new Response("<html>proxy page</html>", { status: 200 }));
    const error = await invalidAnswerOf(getJson("/v1/auth/status", authStatusSchema));
    expect(error.problems).toEqual(["the answer is not JSON"]);
    const unchecked = await invalidAnswerOf(apiRequest("/v1/auth/logout", { method: "POST" }));
    expect(unchecked.problems).toEqual(["the answer is not JSON"]);
  });

  test("no more than five differences are logged for a very wrong answer", async () => {
    serve(() => jsonResponse({ isAuthenticated: "yes", user: { id: "x" } }));
    const error = await invalidAnswerOf(getJson("/v1/auth/status", authStatusSchema));
    expect(error.problems).toHaveLength(5);
  });
});

describe("a long list checked in slices", () => {
  const day = (date: string) => ({ date, course: "masters", tee_times: [{ time: "07:04", status: "AVAILABLE", slotId: null }] });

  test("returns every item as checked, giving the main thread back between slices", async () => {
    let clock = 0;
    setApiDependencies({ logger: recordingLogger(), now: () => (clock += 3) });
    let yields = 0;
    const realSetTimeout = globalThis.setTimeout;
    const counting = ((callback: () => void, ms?: number) => {
      yields++;
      return realSetTimeout(callback, ms);
    }) as typeof setTimeout;
    globalThis.setTimeout = counting;
    try {
      const days = await checkListInSlices("/v1/tee-times", "teeTimes", [day("2026-12-05"), { ...day("2026-12-06"), extra: 1 }, day("2026-12-07")], teeTimeDaySchema, 4);
      expect(days.map((d) => d.date)).toEqual(["2026-12-05", "2026-12-06", "2026-12-07"]);
      expect(days[1]).not.toHaveProperty("extra");
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(yields).toBeGreaterThan(0);
  });

  test("a wrong item refuses the whole list, logged with where it differs", async () => {
    setApiDependencies({ logger: recordingLogger() });
    const refused = checkListInSlices("/v1/tee-times", "teeTimes", [day("2026-12-05"), { date: 5 }], teeTimeDaySchema);
    const error = await refused.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).problems[0]).toStartWith("teeTimes.1.");
    expect(entries.map((e) => [e.level, e.message])).toEqual([["error", "API Call Invalid Response"]]);
  });
});
