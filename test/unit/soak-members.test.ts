/**
 * The soak's members (scripts/bench/soak/members.ts): Teebox failing a member, at sign-in as at any
 * other call, is the day's failure (ServerTrouble), never a passing note. A year run once saw every
 * sign-in answer 500 for ten weeks and reported it only as notes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Client, ServerTrouble } from "../../scripts/bench/soak/members.ts";

let status = 200;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => Response.json(status === 200 ? { ok: true } : { errorKey: "x" }, { status, headers: status === 200 ? { "set-cookie": "teebox_session=abc; Path=/" } : {} }),
});
afterAll(() => server.stop(true));
const client = () => new Client(() => `http://127.0.0.1:${server.port}`, "soak001", "password");
/** What a sign-in answered with `answer` throws (undefined: nothing). */
const signInError = (answer: number) => {
  status = answer;
  return client()
    .signIn()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
};

describe("a soak member signing in", () => {
  test("a 5xx from Teebox is trouble that fails the day", async () => {
    const error = await signInError(500);
    expect(error).toBeInstanceOf(ServerTrouble);
    expect((error as Error).message).toContain("500");
  });

  test("Teebox not answering at all is trouble too", async () => {
    const gone = new Client(() => "http://127.0.0.1:1", "soak001", "password");
    expect(await gone.signIn().catch((e: unknown) => e)).toBeInstanceOf(ServerTrouble);
  });

  test("a refused sign-in (a password changed) is only a surprise", async () => {
    const error = await signInError(401);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ServerTrouble);
  });

  test("a good sign-in keeps the session cookie", async () => {
    status = 200;
    const member = client();
    await member.signIn();
    expect(member.cookie).toBe("teebox_session=abc");
  });
});
