/**
 * Seeds what Teebox needs to run: the built-in superadmin, the club's courses and booking windows,
 * every app setting, the form options and the default UI text. Each part is only written when
 * missing, so it is safe on every start (an upgrade adds new settings and texts, edits are kept).
 * In demo mode it also adds the demo members, matching the demo club's accounts.
 */
import { randomBytes } from "../lib/random.ts";
import { inArray, sql } from "drizzle-orm";
import type { AppDatabase } from "./client.ts";
import { appSettings, bookingWindows, courses, formOptions, uiText, users, type FormOptionCategory } from "./schema.ts";
import { DEFAULT_SETTINGS, serialiseSettings } from "../domain/settings.ts";
import { DEFAULT_UI_TEXT } from "../domain/ui-text/index.ts";
import { CART_CHOICES, CLUB_COURSES, CLUB_WINDOWS, DEMO_CLUB_ACCOUNTS, GUEST_FEE_CHOICES, MEMBER_FEE_CHOICES, PLAYER_TYPES } from "../club-sim/demo-data.ts";
import type { SecretBox } from "../lib/secret-box.ts";

export interface SeedOptions {
  now: number;
  adminPassword: string | null;
  demo: boolean;
  secretBox: SecretBox;
  hashPassword(password: string): Promise<string>;
  /** Told the generated admin password once, when there was none configured. */
  announce(message: string): void;
}

/** The product's defaults come first in each category. */
export const DEFAULT_FORM_OPTIONS: Record<FormOptionCategory, readonly string[]> = {
  playerType: PLAYER_TYPES,
  cartPreference: CART_CHOICES,
  feePreferenceGuest: GUEST_FEE_CHOICES,
  feePreferenceMember: MEMBER_FEE_CHOICES,
};

/** Teebox sign-in of the demo members (README): username / demo1234, club login from the demo club. */
export const DEMO_MEMBER_PASSWORD = "demo1234";
export const DEMO_MEMBERS = DEMO_CLUB_ACCOUNTS.filter((a) => a.email !== "admin@southwoods.demo").map((a) => ({
  username: a.firstName.toLowerCase(),
  name: `${a.firstName} ${a.lastName}`,
  account: a,
}));

async function isEmpty(database: AppDatabase, table: typeof courses | typeof bookingWindows | typeof formOptions) {
  const rows = await database.db.select({ n: sql<number>`count(*)` }).from(table);
  return Number(rows[0]?.n ?? 0) === 0;
}

/** The lower-cased usernames among `names` (lower case) that have an account. */
async function existingUsernames(database: AppDatabase, names: string[]): Promise<Set<string>> {
  const lower = sql<string>`lower(${users.username})`;
  const rows = await database.db.select({ name: lower }).from(users).where(inArray(lower, names));
  return new Set(rows.map((r) => r.name));
}

async function seedAdmin(database: AppDatabase, options: SeedOptions, existing: Set<string>) {
  if (existing.has("admin")) return;
  existing.add("admin");
  const password = options.adminPassword ?? randomBytes(9).toString("base64url");
  const demoAccount = DEMO_CLUB_ACCOUNTS.find((a) => a.email === "admin@southwoods.demo");
  await database.db.insert(users).values({
    username: "admin",
    passwordHash: await options.hashPassword(password),
    role: "superadmin",
    status: "active",
    name: "Club Admin",
    memberId: demoAccount && options.demo ? demoAccount.membershipNumber : "",
    clubEmail: demoAccount && options.demo ? demoAccount.email : "",
    clubPasswordSealed: demoAccount && options.demo ? options.secretBox.seal(demoAccount.password) : null,
    defaultCartType: CART_CHOICES[0],
    defaultFeeGuest: GUEST_FEE_CHOICES[0],
    defaultFeeMember: MEMBER_FEE_CHOICES[0],
    createdAt: options.now,
    updatedAt: options.now,
  });
  if (!options.adminPassword) options.announce(`Created the superadmin 'admin' with the password: ${password} (shown once; set ADMIN_PASSWORD to choose it).`);
}

async function seedDemoMembers(database: AppDatabase, options: SeedOptions, existing: Set<string>) {
  for (const member of DEMO_MEMBERS) {
    if (existing.has(member.username)) continue;
    existing.add(member.username);
    await database.db.insert(users).values({
      username: member.username,
      passwordHash: await options.hashPassword(DEMO_MEMBER_PASSWORD),
      role: "user",
      status: "active",
      name: member.name,
      memberId: member.account.membershipNumber,
      clubEmail: member.account.email,
      clubPasswordSealed: options.secretBox.seal(member.account.password),
      defaultCartType: CART_CHOICES[0],
      defaultFeeGuest: GUEST_FEE_CHOICES[0],
      defaultFeeMember: MEMBER_FEE_CHOICES[0],
      createdAt: options.now,
      updatedAt: options.now,
    });
  }
}

export async function seed(database: AppDatabase, options: SeedOptions): Promise<void> {
  const { db } = database;
  // Which of the built-in accounts exist, read at once: a start after the first finds them all.
  const existing = await existingUsernames(database, ["admin", ...(options.demo ? DEMO_MEMBERS.map((m) => m.username) : [])]);
  await seedAdmin(database, options, existing);
  if (options.demo) await seedDemoMembers(database, options, existing);

  if (await isEmpty(database, courses)) {
    await db.insert(courses).values(CLUB_COURSES.map((c, i) => ({ id: c.id, name: c.name, daysActive: [...c.daysActive], position: i })));
  }
  if (await isEmpty(database, bookingWindows)) {
    const rows = Object.entries(CLUB_WINDOWS).flatMap(([ruleKey, windows]) => windows.map((w) => ({ ruleKey, startTime: w.start, endTime: w.end })));
    await db.insert(bookingWindows).values(rows);
  }
  if (await isEmpty(database, formOptions)) {
    const rows = Object.entries(DEFAULT_FORM_OPTIONS).flatMap(([category, values]) =>
      values.map((value, position) => ({ category: category as FormOptionCategory, value, position })),
    );
    await db.insert(formOptions).values(rows);
  }
  // Only the keys a database lacks are written: on every start after the first there are none, and
  // building one insert of every default text (hundreds of rows) was a tenth of the start-up.
  const settingKeys = new Set((await db.select({ key: appSettings.key }).from(appSettings)).map((r) => r.key));
  const settingRows = Object.entries(serialiseSettings(DEFAULT_SETTINGS))
    .filter(([key]) => !settingKeys.has(key))
    .map(([key, value]) => ({ key, value }));
  if (settingRows.length > 0) await db.insert(appSettings).values(settingRows).onConflictDoNothing();
  // The texts (a thousand) are compared by SQLite: reading every key back to compare them here was
  // most of the seed's time on a start that has them all (decision 194).
  const missingTexts = await db
    .select({ key: sql<string>`value` })
    .from(sql`json_each(${JSON.stringify(Object.keys(DEFAULT_UI_TEXT))})`)
    .where(sql`value not in (select ${uiText.key} from ${uiText})`);
  const textRows = missingTexts.map(({ key }) => ({ key, value: String(DEFAULT_UI_TEXT[key as keyof typeof DEFAULT_UI_TEXT]) }));
  if (textRows.length > 0) await db.insert(uiText).values(textRows).onConflictDoNothing();
}
