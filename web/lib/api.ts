/**
 * The one HTTP helper for `/v1` calls: JSON in and out, same-origin cookies, every call logged
 * with its duration, and a 401 anywhere sends the browser to /login.
 * A call that claims a type names the schema of the answer; an answer that does not match it is
 * logged and raised as an InvalidResponseError, never handed on as a wrongly typed object.
 *
 * Each call is typed by its route's contract (web/lib/api-contracts.ts, decision 170): the URL and
 * method pick the contract, which says what body may be sent and what the answer's schema must
 * read, so a call the server no longer takes, or a schema that misses what it answers, fails the
 * type check.
 */
import { commonText } from "../../src/domain/ui-text/common.ts";
import { paths } from "../paths.ts";
import { firstPaint } from "./after-first-paint.ts";
import { clientLog, type ClientLogger } from "./client-log.ts";
import type { AnswerAt, ApiUrl, BodyAt, HttpMethod } from "./api-contracts.ts";
import type { ApiErrorBody } from "./types.ts";

export type { HttpMethod };

export interface ApiRequestOptions<U extends string = string, M extends HttpMethod = HttpMethod> {
  method?: M;
  /** Serialised as JSON when present: what the route's contract takes. */
  body?: BodyAt<U, M>;
  signal?: AbortSignal;
}

/** What the helper needs of a response schema (zod and zod/mini schemas both have it). */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** UI-text key of the message shown when an answer cannot be read. */
export const INVALID_RESPONSE_KEY = "error.invalid_response";

/** A successful call whose answer does not have the shape its schema says. */
export class InvalidResponseError extends Error {
  readonly status: number;
  readonly url: string;
  readonly errorKey = INVALID_RESPONSE_KEY;
  /** Where the answer differs, e.g. 'user.role: Invalid option'; at most a few. */
  readonly problems: string[];

  constructor(status: number, url: string, problems: string[]) {
    super(commonText[INVALID_RESPONSE_KEY]);
    this.name = "InvalidResponseError";
    this.status = status;
    this.url = url;
    this.problems = problems;
  }
}

/** A failed call: `message` is the text to show (server message, else errorKey, else the status fallback). */
export class ApiError extends Error {
  readonly status: number;
  readonly errorKey: string | undefined;
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | undefined;
  /** How long the server asked to wait before trying again (a 429's Retry-After), in ms. */
  readonly retryAfterMs: number | null;

  constructor(status: number, body: ApiErrorBody, retryAfterMs: number | null = null) {
    super(errorTextOf(status, body));
    this.name = "ApiError";
    this.status = status;
    this.errorKey = body.errorKey;
    this.serverMessage = body.message;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Retry-After in seconds (the form Teebox sends); null when absent or unreadable. */
function retryAfterOf(response: Response): number | null {
  const seconds = Number(response.headers.get("retry-after"));
  return response.headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
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
  /** Resolves once the first screen has painted (web/lib/after-first-paint.ts). */
  firstPaint: () => Promise<void>;
}

const browserDependencies: ApiDependencies = {
  fetch: (input, init) => globalThis.fetch(input, init),
  firstPaint,
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

/** A call whose answer is read: checked against `schema`, which must read what the route's contract answers. */
export function apiRequest<U extends ApiUrl<M>, T extends AnswerAt<U, M>, M extends HttpMethod = "GET">(
  url: U,
  options: ApiRequestOptions<U, M> & { schema: ResponseSchema<T> },
): Promise<T>;
/** A call whose answer is not read as anything in particular (204s, fire-and-forget posts). */
export function apiRequest<U extends ApiUrl<M>, M extends HttpMethod = "GET">(url: U, options?: ApiRequestOptions<U, M>): Promise<unknown>;
export function apiRequest<T>(url: string, options: RequestOptions<T> = {}): Promise<T | unknown> {
  return request(url, options);
}

/** The options as the helper itself reads them, once the contract has checked the call's types. */
interface RequestOptions<T> {
  method?: HttpMethod;
  body?: unknown;
  signal?: AbortSignal;
  schema?: ResponseSchema<T>;
}

async function request<T>(url: string, options: RequestOptions<T>): Promise<T | unknown> {
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
    const error = new ApiError(response.status, await readErrorBody(response), retryAfterOf(response));
    if (response.status === 401) {
      logger.warn("API Call Auth Failure", { method, url, status: response.status, duration });
      if (dependencies.currentPath() !== paths.login) dependencies.navigate(paths.login);
    } else {
      logger.error("API Call Failed", { method, url, status: response.status, duration, message: error.message });
    }
    throw error;
  }

  logger.info("API Call Success", { method, url, status: response.status, duration });
  const body = response.status === 204 ? NO_BODY : await readBody(response);
  if (body.isReadable && !options.schema) return body.value;
  const checked = body.isReadable && options.schema ? options.schema.safeParse(body.value) : null;
  if (checked?.success) return checked.data;
  const problems = checked ? checked.error.issues.slice(0, MAX_PROBLEMS_LOGGED).map(describeIssue) : ["the answer is not JSON"];
  logger.error("API Call Invalid Response", { method, url, status: response.status, duration, problems });
  throw new InvalidResponseError(response.status, url, problems);
}

const MAX_PROBLEMS_LOGGED = 5;
const NO_BODY = { isReadable: true, value: undefined };

async function readBody(response: Response): Promise<{ isReadable: boolean; value: unknown }> {
  const text = await response.text();
  if (!text) return { isReadable: true, value: undefined };
  try {
    return { isReadable: true, value: JSON.parse(text) };
  } catch {
    return { isReadable: false, value: undefined };
  }
}

function describeIssue(issue: SchemaIssue): string {
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
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

/** Appends a cache-busting query (the live data calls send one; the server ignores it). */
export function withCacheBuster<U extends string>(url: U, now: number = Date.now()): WithQuery<U> {
  return `${url}${url.includes("?") ? "&" : "?"}_=${now}` as WithQuery<U>;
}

type WithQuery<U extends string> = U extends `${string}?${string}` ? `${U}&${string}` : `${U}?${string}`;

/**
 * Reads: the answer's schema is required, so every type claimed is checked. A read waits until the
 * first screen has painted: on a slow phone the page shows first, then its data arrives, instead of
 * the answers and their checks holding the first paint back. (The session check, which decides
 * what the first screen is, calls apiRequest directly.)
 */
export async function getJson<U extends ApiUrl<"GET">, T extends Readable<AnswerAt<U, "GET">>>(url: U, schema: ResponseSchema<T>, signal?: AbortSignal): Promise<T> {
  await dependencies.firstPaint();
  return request(url, { schema, signal }) as Promise<T>;
}

/**
 * An answer as a read may take it: whole, or with a long list left unchecked, to be checked item
 * by item afterwards (checkListInSlices), as the tee sheet is.
 */
export type Readable<A> = A | { [K in keyof A]: A[K] extends readonly unknown[] ? A[K] | unknown[] : A[K] };

/** Gives the main thread back (to input, other tasks, a frame) before going on. */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Checks a long list from an answer one item at a time, giving the main thread back every few
 * milliseconds: the tee sheet (two courses, two weeks of times) took one long task to check at
 * once on a phone. A wrong item is logged and raised like any answer that does not match its schema.
 */
export async function checkListInSlices<T>(url: string, field: string, items: readonly unknown[], item: ResponseSchema<T>, sliceMs = 4): Promise<T[]> {
  const { logger, now } = dependencies;
  const checked: T[] = [];
  let sliceStart = now();
  for (const [index, entry] of items.entries()) {
    const result = item.safeParse(entry);
    if (!result.success) {
      const problems = result.error.issues.slice(0, MAX_PROBLEMS_LOGGED).map((issue) => describeIssue({ ...issue, path: [field, index, ...issue.path] }));
      logger.error("API Call Invalid Response", { method: "GET", url, status: 200, problems });
      throw new InvalidResponseError(200, url, problems);
    }
    checked.push(result.data);
    if (now() - sliceStart >= sliceMs) {
      await yieldToMain();
      sliceStart = now();
    }
  }
  return checked;
}

/** Writes, each with the body its route's contract takes: `schema` when the answer is read, else the answer is ignored. */
export const api = {
  post: <U extends ApiUrl<"POST">>(url: U, ...body: BodyArgument<U, "POST">) => sendJson("POST", url, body[0]),
  put: <U extends ApiUrl<"PUT">>(url: U, body: BodyAt<U, "PUT">) => sendJson("PUT", url, body),
  delete: <U extends ApiUrl<"DELETE">>(url: U) => sendJson("DELETE", url),
  postFor: <U extends ApiUrl<"POST">, T extends AnswerAt<U, "POST">>(url: U, body: BodyAt<U, "POST">, schema: ResponseSchema<T>) =>
    request(url, { method: "POST", body, schema }) as Promise<T>,
  putFor: <U extends ApiUrl<"PUT">, T extends AnswerAt<U, "PUT">>(url: U, body: BodyAt<U, "PUT">, schema: ResponseSchema<T>) =>
    request(url, { method: "PUT", body, schema }) as Promise<T>,
};

/** A post to a route that takes no body is called without one. */
type BodyArgument<U extends string, M extends HttpMethod> = [BodyAt<U, M>] extends [undefined] ? [] : [body: BodyAt<U, M>];

async function sendJson(method: HttpMethod, url: string, body?: unknown): Promise<void> {
  await request(url, { method, body });
}
