/**
 * The one HTTP helper for `/v1` calls (spec §7, §8): JSON in and out, same-origin cookies,
 * every call logged with its duration, and a 401 anywhere sends the browser to /login.
 */
import { paths } from "../paths.ts";
import { clientLog, type ClientLogger } from "./client-log.ts";
import type { ApiErrorBody } from "./types.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** Serialised as JSON when present. */
  body?: unknown;
  signal?: AbortSignal;
}

/** A failed call: `message` is the text to show (server message, else errorKey, else the status fallback). */
export class ApiError extends Error {
  readonly status: number;
  readonly errorKey: string | undefined;
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | undefined;

  constructor(status: number, body: ApiErrorBody) {
    super(errorTextOf(status, body));
    this.name = "ApiError";
    this.status = status;
    this.errorKey = body.errorKey;
    this.serverMessage = body.message;
  }
}

export function errorTextOf(status: number, body: ApiErrorBody): string {
  if (body.message) return body.message;
  if (body.errorKey) return body.errorKey;
  return `Request failed with status ${status}`;
}

export interface ApiDependencies {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  logger: ClientLogger;
  now: () => number;
  /** Full page navigation, so every in-memory state of the signed-out session is dropped. */
  navigate: (url: string) => void;
  currentPath: () => string;
}

const browserDependencies: ApiDependencies = {
  fetch: (input, init) => globalThis.fetch(input, init),
  logger: clientLog,
  now: () => performance.now(),
  navigate: (url) => window.location.assign(url),
  currentPath: () => window.location.pathname,
};

let dependencies: ApiDependencies = browserDependencies;

/** Tests swap the collaborators; call with no argument to restore the browser ones. */
export function setApiDependencies(overrides?: Partial<ApiDependencies>): void {
  dependencies = { ...browserDependencies, ...overrides };
}

export async function apiRequest<T>(url: string, options: ApiRequestOptions = {}): Promise<T> {
  const { fetch, logger, now } = dependencies;
  const method = options.method ?? "GET";
  const startedAt = now();
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    logger.error("API Call Network Error", { method, url, duration: formatDuration(now() - startedAt), error: describeError(error) });
    throw error;
  }
  const duration = formatDuration(now() - startedAt);

  if (!response.ok) {
    const error = new ApiError(response.status, await readErrorBody(response));
    if (response.status === 401) {
      logger.warn("API Call Auth Failure", { method, url, status: response.status, duration });
      if (dependencies.currentPath() !== paths.login) dependencies.navigate(paths.login);
    } else {
      logger.error("API Call Failed", { method, url, status: response.status, duration, message: error.message });
    }
    throw error;
  }

  logger.info("API Call Success", { method, url, status: response.status, duration });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Milliseconds with two decimals, e.g. '12.34ms'. */
export function formatDuration(ms: number): string {
  return `${ms.toFixed(2)}ms`;
}

async function readErrorBody(response: Response): Promise<ApiErrorBody> {
  try {
    const body: unknown = await response.json();
    if (body === null || typeof body !== "object") return {};
    const { message, errorKey } = body as Record<string, unknown>;
    return {
      message: typeof message === "string" && message ? message : undefined,
      errorKey: typeof errorKey === "string" && errorKey ? errorKey : undefined,
    };
  } catch {
    return {};
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Appends a cache-busting query (spec §7 lists it for the live data calls). */
export function withCacheBuster(url: string, now: number = Date.now()): string {
  return `${url}${url.includes("?") ? "&" : "?"}_=${now}`;
}

export const api = {
  get: <T>(url: string, signal?: AbortSignal) => apiRequest<T>(url, { signal }),
  post: <T>(url: string, body?: unknown) => apiRequest<T>(url, { method: "POST", body }),
  put: <T>(url: string, body?: unknown) => apiRequest<T>(url, { method: "PUT", body }),
  delete: <T>(url: string) => apiRequest<T>(url, { method: "DELETE" }),
};
