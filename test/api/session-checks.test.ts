import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/api.ts";
import { watchStatements } from "../helpers/test-database.ts";
import { sessions } from "../../src/db/schema.ts";
import { endSession, forgetCachedUser, resolveSessionToken, type SessionDeps, sessionTokenOf } from "../../src/services/sessions.ts";

let t: TestApp;
let unwatch: (() => void)[] = [];
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  for (const stop of unwatch) stop();
  unwatch = [];
  await t.close();
});

/** The reads of the sessions table from now on, counted as they run (prepared or not). */
function countSessionReads(): () => number {
  let reads = 0;
  unwatch.push(
    watchStatements(t.deps.database.db, (sql) => {
      if (/^select\b/i.test(sql) && sql.includes('from "sessions"')) reads++;
    }),
  );
  return () => reads;
}

/** The app's session deps with a cache of their own (a new database object), and their reads of sessions counted. */
function countingDeps(): { deps: SessionDeps; selects: () => number } {
  return { deps: { ...t.deps, database: { ...t.deps.database } }, selects: countSessionReads() };
}

async function memberToken(): Promise<string> {
  await t.createUser({ username: "maria", password: "maria-pass" });
  return sessionTokenOf(await t.signIn("maria", "maria-pass"))!;
}

describe("checking a session cookie", () => {
  test("a reload's reads arriving together check the session once, and all get it", async () => {
    const token = await memberToken();
    const { deps, selects } = countingDeps();
    const answers = await Promise.all(Array.from({ length: 8 }, () => resolveSessionToken(deps, token)));
    expect(answers.every((a) => a?.user.username === "maria")).toBe(true);
    expect(selects()).toBe(1);
    // Remembered now: no read at all.
    expect((await resolveSessionToken(deps, token))?.user.username).toBe("maria");
    expect(selects()).toBe(1);
  });

  test("a remembered session is read again after a while, and one gone since is refused", async () => {
    const token = await memberToken();
    const { deps, selects } = countingDeps();
    const first = await resolveSessionToken(deps, token);
    await t.clock.advance(11_000);
    expect((await resolveSessionToken(deps, token))?.sessionId).toBe(first!.sessionId);
    expect(selects()).toBe(2);
    // Ended by another way than endSession (another instance, a restore): the next read finds no row.
    await t.deps.database.db.delete(sessions).where(eq(sessions.id, first!.sessionId));
    await t.clock.advance(11_000);
    expect(await resolveSessionToken(deps, token)).toBeNull();
  });

  test("a session ended while its check is under way is not remembered", async () => {
    const token = await memberToken();
    const { deps } = countingDeps();
    const checking = resolveSessionToken(deps, token);
    const sessionId = (await resolveSessionToken(t.deps, token))!.sessionId;
    await endSession(deps, sessionId);
    await checking;
    expect(await resolveSessionToken(deps, token)).toBeNull();
  });

  test("a user changed while their session's row is being read is read again next time, not remembered", async () => {
    const token = await memberToken();
    const first = await resolveSessionToken(t.deps, token);
    // The row's last-seen time is old enough to be touched: the check waits on that write.
    await t.clock.advance(61_000);
    const { deps, selects } = countingDeps();
    unwatch.push(
      watchStatements(t.deps.database.db, (sql) => {
        // An admin's change to the user lands exactly while the check writes the touch.
        if (/^update "sessions"/i.test(sql)) forgetCachedUser(deps, first!.user.id);
      }),
    );
    expect((await resolveSessionToken(deps, token))?.user.username).toBe("maria");
    expect(selects()).toBe(1);
    // Not remembered from the check the change overtook: the next call reads the row again.
    await resolveSessionToken(deps, token);
    expect(selects()).toBe(2);
  });

  test("a forged or expired token is refused however often it comes", async () => {
    const token = await memberToken();
    const { deps } = countingDeps();
    const forged = `${token.slice(0, -4)}AAAA`;
    const answers = await Promise.all([resolveSessionToken(deps, forged), resolveSessionToken(deps, forged)]);
    expect(answers).toEqual([null, null]);
    await resolveSessionToken(deps, token);
    await t.clock.advance(15 * 24 * 60 * 60_000);
    expect(await resolveSessionToken(deps, token)).toBeNull();
  });
});
