/**
 * What the service worker does with a request (web/sw.ts), as a pure function so it is tested
 * without a browser: never cache what the server must answer, shell files from the cache.
 */
export const SHELL_CACHE_PREFIX = "teebox-shell-";
export const SHELL_INDEX = "/index.html";

export type SwRoute = "network" | "page" | "shell";

/** Paths the server answers itself: API, socket, health, the demo club's control. */
const SERVER_ONLY = /^\/(v1(\/|$)|healthz$|__control(\/|$)|sw\.js$)/;

export function shellCacheName(version: string): string {
  return `${SHELL_CACHE_PREFIX}${version}`;
}

export function routeOf(request: Pick<Request, "method" | "url" | "mode">, origin: string): SwRoute {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin) return "network";
  if (SERVER_ONLY.test(url.pathname)) return "network";
  if (request.mode === "navigate") return "page";
  return "shell";
}
