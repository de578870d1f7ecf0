/**
 * A fresh Teebox (app + a new database on this run's driver, migrated and seeded: bun:sqlite in
 * memory, or the libSQL driver in the libSQL pass, test-database.ts) for API tests, with helpers to
 * call routes as a browser page of ours would: JSON bodies, our Origin, and the session cookie.
 */
import { eq } from "drizzle-orm";
import { createApp } from "../../src/app.ts";
import { migrate } from "../../src/db/migrate.ts";
import { users, type Role } from "../../src/db/schema.ts";
import type { AppDatabase } from "../../src/db/client.ts";
import { seed } from "../../src/db/seed.ts";
import type { AppDeps } from "../../src/deps.ts";
import { hashPassword } from "../../src/services/passwords.ts";
import { FakeClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { createHub } from "../../src/realtime/hub.ts";
import { createContainer, jobsOf, type ContainerConfig } from "../../src/container.ts";
import type { ReleaseEngineOptions } from "../../src/jobs/release-engine.ts";
import type { MailSenderOptions } from "../../src/jobs/mail-sender.ts";
import type { ServerMessage } from "../../src/realtime/messages.ts";
import type { ClubAccount } from "../../src/club-sim/demo-data.ts";
import { openTestDatabase } from "./test-database.ts";
import { createContractChecker } from "./contract-check.ts";

export const ORIGIN = "http://localhost";
export const ADMIN_PASSWORD = "admin-password-1";
/** 2026-11-22 09:00 Manila. */
export const TEST_NOW = Date.UTC(2026, 10, 22, 1, 0, 0);

export interface CallOptions {
  body?: unknown;
  cookie?: string;
  origin?: string | null;
  contentType?: string | null;
  rawBody?: string;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  clock: FakeClock;
  logLines: string[];
  published: { topic: string; message: ServerMessage }[];
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  signIn(username: string, password: string): Promise<string>;
  createUser(fields: { username: string; password?: string; role?: Role; complete?: boolean; status?: "active" | "disabled" }): Promise<number>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  now?: number;
  demo?: boolean;
  /** The club site the adapter talks to (a demo club the test started); default: nothing listening. */
  clubUrl?: string;
  /** Parts of the app this test gives itself (the container builds the rest from them). */
  extend?: () => Partial<AppDeps>;
  /** How the release engine is built (the container builds it with the app's parts). */
  releaseEngine?: ReleaseEngineOptions;
  /** The mail job's transport and pace (default: no SMTP, messages kept in the outbox). */
  mail?: MailSenderOptions;
  /** The push job's transport, subject and pace, and the push services devices may subscribe at (a loopback stand-in). */
  push?: ContainerConfig["push"];
  /** A database opened by the test (several instances on one); default: a new one on this run's driver. */
  database?: AppDatabase;
  /** A clock shared with other instances; default: a new FakeClock at `now`. */
  clock?: FakeClock;
}

/** A port nothing listens on, so a test that forgot to start a club fails fast and clearly. */
const NO_CLUB_URL = "http://127.0.0.1:9";

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? new FakeClock(options.now ?? TEST_NOW);
  const logLines: string[] = [];
  const database = options.database ?? (await openTestDatabase());
  await migrate(database, clock.now());
  const secretBox = createSecretBox(Buffer.alloc(32, 7));
  const config: ContainerConfig = {
    database,
    clock,
    logger: createLogger(
      "debug",
      (line) => logLines.push(line),
      () => clock.now(),
    ),
    secretBox,
    sessionKey: new Uint8Array(32).fill(3),
    publicOrigin: null,
    clubInfo: { mode: "demo", url: options.clubUrl ?? NO_CLUB_URL },
    clubTimeoutMs: 2000,
    passwordCost: { memoryCost: 1024, timeCost: 1 },
    releaseEngine: options.releaseEngine,
    mail: options.mail,
    push: options.push,
  };
  const hub = createHub({ onError: (error, action) => logLines.push(JSON.stringify({ level: "error", message: "socket action failed", action, error: String(error) })) });
  const deps: AppDeps = createContainer(config, { hub, ...(options.extend?.() ?? {}) });
  await seed(database, {
    now: clock.now(),
    adminPassword: ADMIN_PASSWORD,
    demo: options.demo ?? false,
    secretBox,
    hashPassword: (password) => hashPassword(deps, password),
    announce: () => undefined,
  });
  // As a started Teebox has it: the push key pair is made at start, never by a member's call.
  await deps.pushKeys.get();
  const published: { topic: string; message: ServerMessage }[] = [];
  deps.hub.onPublish((topic, message) => published.push({ topic, message }));
  const app = createApp(deps);

  // Every answer is checked against its route's contract: a test that gets an answer the contract
  // does not allow fails with the difference (test/helpers/contract-check.ts).
  const contracts = createContractChecker(app);
  const call = async (method: string, path: string, o: CallOptions = {}) => {
    const headers: Record<string, string> = {};
    if (o.contentType !== null) headers["content-type"] = o.contentType ?? "application/json";
    if (o.origin !== null) headers.origin = o.origin ?? ORIGIN;
    if (o.cookie) headers.cookie = o.cookie;
    const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const response = await app.request(`${ORIGIN}${path}`, { method, headers, body });
    await contracts.check(method, path, response);
    return response;
  };

  return {
    app,
    deps,
    clock,
    logLines,
    published,
    call,
    async signIn(username, password) {
      const res = await call("POST", "/v1/auth/login", { body: { username, password } });
      if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${await res.text()}`);
      const setCookie = res.headers.get("set-cookie") ?? "";
      return setCookie.split(";")[0];
    },
    async createUser(fields) {
      const now = clock.now();
      const complete = fields.complete ?? true;
      const [row] = await database.db
        .insert(users)
        .values({
          username: fields.username,
          passwordHash: await hashPassword(deps, fields.password ?? fields.username),
          role: fields.role ?? "user",
          status: fields.status ?? "active",
          name: complete ? `${fields.username} Tester` : "",
          memberId: complete ? `SW-T${Math.floor(Math.random() * 1e6)}` : "",
          clubEmail: complete ? `${fields.username}@southwoods.demo` : "",
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      return row.id;
    },
    close: async () => {
      // Whatever the test started stops, in the reverse of the order the jobs start.
      for (const job of jobsOf(deps).reverse()) await job.stop();
      await deps.notifier.settled?.();
      await database.close();
    },
  };
}

export async function userIdOf(t: TestApp, username: string): Promise<number> {
  const rows = await t.deps.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return rows[0].id;
}

/** Stores members of Teebox for the club's accounts (`${prefix}1`, …), each with their sealed club login; returns their rows in order. */
export async function enrolClubAccounts(deps: Pick<AppDeps, "database" | "secretBox">, accounts: ClubAccount[], prefix: string, now: number) {
  return deps.database.db
    .insert(users)
    .values(
      accounts.map((account, i) => ({
        username: `${prefix}${i + 1}`,
        passwordHash: "x",
        name: `${account.firstName} ${account.lastName}`,
        memberId: account.membershipNumber,
        clubEmail: account.email,
        clubPasswordSealed: deps.secretBox.seal(account.password),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
}
