/** What the service worker may answer from its cache: never the API, the socket or another origin. */
import { describe, expect, test } from "bun:test";
import { routeOf, shellCacheName, SHELL_CACHE_PREFIX } from "../../web/lib/sw-routes.ts";

const ORIGIN = "https://teebox.example";
const get = (path: string, mode: RequestMode = "cors", origin = ORIGIN) => ({ method: "GET", url: `${origin}${path}`, mode });

describe("service worker routes", () => {
  test("API answers, the socket, health and the worker itself always go to the network", () => {
    for (const path of ["/v1/my/bookings", "/v1/my/requests?_=1", "/v1", "/v1/ws", "/healthz", "/__control/clock", "/sw.js"]) {
      expect(routeOf(get(path), ORIGIN)).toBe("network");
      expect(routeOf(get(path, "navigate"), ORIGIN)).toBe("network");
    }
  });

  test("writes and other origins are never touched", () => {
    expect(routeOf({ method: "POST", url: `${ORIGIN}/chunk-abc12345.js`, mode: "cors" }, ORIGIN)).toBe("network");
    expect(routeOf(get("/chunk-abc12345.js", "cors", "https://cdn.example"), ORIGIN)).toBe("network");
  });

  test("page loads go to the network first (an upgrade is seen at once); bundle files may come from the shell", () => {
    expect(routeOf(get("/bookings", "navigate"), ORIGIN)).toBe("page");
    expect(routeOf(get("/", "navigate"), ORIGIN)).toBe("page");
    expect(routeOf(get("/chunk-abc12345.js"), ORIGIN)).toBe("shell");
    expect(routeOf(get("/icons/icon-192.png", "no-cors"), ORIGIN)).toBe("shell");
    // A path that merely starts with v1 is not the API.
    expect(routeOf(get("/v1x.js"), ORIGIN)).toBe("shell");
  });

  test("each build has a shell cache of its own", () => {
    expect(shellCacheName("abc")).toBe(`${SHELL_CACHE_PREFIX}abc`);
    expect(shellCacheName("abc")).not.toBe(shellCacheName("abd"));
  });
});
