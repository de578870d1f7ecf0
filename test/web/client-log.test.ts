import "../helpers/dom.ts";
import { describe, expect, test } from "bun:test";
import { CLIENT_LOG_URL, createClientLogger, LOGGER_DOWN_WARNING } from "../../web/lib/client-log.ts";
import { CLIENT_LOG_BATCH_MAX } from "../../src/domain/client-log.ts";

function recordingConsole() {
  const warnings: unknown[][] = [];
  const errors: unknown[][] = [];
  return { warnings, errors, console: { warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => errors.push(args) } };
}

describe("client log sender", () => {
  test("posts {level, message, context} as JSON with keep-alive", async () => {
    const sent: { url: string; init?: RequestInit }[] = [];
    const output = recordingConsole();
    const logger = createClientLogger({
      fetch: async (url, init) => {
        sent.push({ url, init });
        return new Response(null, { status: 204 });
      },
      console: output.console,
    });
    logger.info("API Call Success", { url: "/v1/x" });
    await logger.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe(CLIENT_LOG_URL);
    expect(sent[0].init?.method).toBe("POST");
    expect(sent[0].init?.keepalive).toBe(true);
    expect(new Headers(sent[0].init?.headers).get("Content-Type")).toBe("application/json");
    expect(JSON.parse(String(sent[0].init?.body))).toEqual({ level: "info", message: "API Call Success", context: { url: "/v1/x" } });
    expect(output.warnings).toEqual([]);
  });

  test("entries wait for the scheduler (the app's waits for the first paint) and then leave in order; warnings show at once", async () => {
    const sent: string[] = [];
    const output = recordingConsole();
    const waiting: (() => void)[] = [];
    const logger = createClientLogger({
      fetch: async (_url, init) => {
        sent.push(...JSON.parse(String(init?.body)).entries.map((e: { message: string }) => e.message));
        return new Response(null, { status: 204 });
      },
      console: output.console,
      schedule: (send) => waiting.push(send),
    });
    logger.info("API Call Success");
    logger.warn("socket dropped");
    expect(sent).toEqual([]);
    expect(output.warnings).toHaveLength(1);
    for (const send of waiting.splice(0)) send();
    await logger.flush();
    expect(sent).toEqual(["API Call Success", "socket dropped"]);
  });

  test("switches itself off after the first failed send, with exactly one console warning", async () => {
    let sends = 0;
    const output = recordingConsole();
    const logger = createClientLogger({
      fetch: async () => {
        sends++;
        throw new TypeError("Failed to fetch");
      },
      console: output.console,
    });
    logger.info("first");
    await logger.flush();
    logger.info("second");
    logger.debug("third");
    await logger.flush();
    expect(sends).toBe(1);
    expect(logger.isEnabled()).toBe(false);
    expect(output.warnings).toEqual([[LOGGER_DOWN_WARNING]]);
  });

  test("an error status counts as a failure too", async () => {
    let sends = 0;
    const output = recordingConsole();
    const logger = createClientLogger({
      fetch: async () => {
        sends++;
        return new Response(null, { status: 503 });
      },
      console: output.console,
    });
    logger.info("a");
    await logger.flush();
    logger.info("b");
    await logger.flush();
    logger.info("c");
    await logger.flush();
    expect(sends).toBe(1);
    expect(output.warnings).toEqual([[LOGGER_DOWN_WARNING]]);
  });

  test("a page's entries leave together: one post when the page is left, at most CLIENT_LOG_BATCH_MAX a post, an error at once", async () => {
    const posts: unknown[] = [];
    const timers = new Map<number, () => void>();
    let nextTimer = 0;
    let leave: () => void = () => undefined;
    const logger = createClientLogger({
      fetch: async (_url, init) => {
        posts.push(JSON.parse(String(init?.body)));
        return new Response(null, { status: 204 });
      },
      console: recordingConsole().console,
      timer: {
        set: (callback) => {
          timers.set(++nextTimer, callback);
          return nextTimer;
        },
        clear: (handle) => timers.delete(handle as number),
      },
      onPageLeave: (callback) => (leave = callback),
    });
    // A page load logs each API call: nothing is posted while the page is in use.
    for (let i = 0; i < 7; i++) logger.info("API Call Success", { url: `/v1/x${i}` });
    await Promise.resolve();
    expect(posts).toEqual([]);
    // Leaving the page (a reload) posts them in one request.
    leave();
    await logger.flush();
    expect(posts).toHaveLength(1);
    expect((posts[0] as { entries: { message: string; context: { url: string } }[] }).entries.map((e) => e.context.url)).toEqual([
      "/v1/x0",
      "/v1/x1",
      "/v1/x2",
      "/v1/x3",
      "/v1/x4",
      "/v1/x5",
      "/v1/x6",
    ]);
    // The gathering time passing posts what waits; a full batch goes at once.
    logger.info("later");
    expect(timers.size).toBe(1);
    [...timers.values()][0]!();
    await logger.flush();
    expect(posts.at(-1)).toEqual({ level: "info", message: "later", context: {} });
    for (let i = 0; i < CLIENT_LOG_BATCH_MAX + 3; i++) logger.debug(`d${i}`);
    await Promise.resolve();
    expect((posts.at(-1) as { entries: unknown[] }).entries).toHaveLength(CLIENT_LOG_BATCH_MAX);
    // An error does not wait, and takes the entries before it along.
    logger.error("boom");
    await logger.flush();
    expect(posts.at(-1)).toEqual({
      entries: [
        { level: "debug", message: `d${CLIENT_LOG_BATCH_MAX}`, context: {} },
        { level: "debug", message: `d${CLIENT_LOG_BATCH_MAX + 1}`, context: {} },
        { level: "debug", message: `d${CLIENT_LOG_BATCH_MAX + 2}`, context: {} },
        { level: "error", message: "boom", context: {} },
      ],
    });
    expect(posts).toHaveLength(4);
  });
});
