/**
 * The server's VAPID key pair (decision 185): made when Teebox first starts (src/main.ts asks for it), then kept in the
 * database (push_keys), so every backup carries it and a restored Teebox keeps reaching the
 * devices members turned on. The private key is sealed with the secret box, like club passwords:
 * a copy of the database alone cannot push to members' phones.
 *
 * When the key cannot be opened (a database restored without its key file, SECRET_KEY changed),
 * new keys are made and every device is removed: browsers subscribed with the old public key, and
 * push services refuse pushes signed with another. Members turn push on again on their devices.
 */
import { eq } from "drizzle-orm";
import type { AppDatabase } from "../db/client.ts";
import { pushKeys, pushSubscriptions } from "../db/schema.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { type SecretBox, UnreadableSecretError } from "../lib/secret-box.ts";
import { makeVapidKeys } from "../push/web-push-request.ts";
import { removeDevices } from "./push-subscriptions.ts";

export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

export interface VapidKeyStore {
  /** The key pair, made on first use (at start); the same pair for as long as the database keeps it. */
  get(): Promise<VapidKeyPair>;
}

export interface VapidKeyDeps {
  database: AppDatabase;
  secretBox: SecretBox;
  clock: Clock;
  logger: Logger;
}

const KEY_ROW = 1;

export function createVapidKeyStore(d: VapidKeyDeps): VapidKeyStore {
  const db = d.database.db;
  let loading: Promise<VapidKeyPair> | null = null;

  async function stored() {
    const [row] = await db.select().from(pushKeys).where(eq(pushKeys.id, KEY_ROW));
    return row ?? null;
  }

  /** Made once: of two instances starting at once on a libSQL server, the first insert wins and both read it. */
  async function makeFirst(): Promise<void> {
    const made = await makeVapidKeys();
    await db
      .insert(pushKeys)
      .values({ id: KEY_ROW, publicKey: made.publicKey, privateKeySealed: d.secretBox.seal(made.privateKey), createdAt: d.clock.now() })
      .onConflictDoNothing();
  }

  async function replaceUnreadable(sealed: string): Promise<void> {
    const made = await makeVapidKeys();
    const replaced = await db
      .update(pushKeys)
      .set({ publicKey: made.publicKey, privateKeySealed: d.secretBox.seal(made.privateKey), createdAt: d.clock.now() })
      .where(eq(pushKeys.privateKeySealed, sealed))
      .returning({ id: pushKeys.id });
    if (replaced.length === 0) return;
    const devices = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions);
    await removeDevices(
      d.database,
      devices.map((device) => device.id),
      "not sent: the push keys were replaced",
    );
    d.logger.warn("push: the stored push key could not be opened with the current secret key; new keys were made and every device must turn push on again", {
      devices: devices.length,
    });
  }

  async function load(): Promise<VapidKeyPair> {
    if (!(await stored())) await makeFirst();
    for (;;) {
      const row = await stored();
      if (!row) throw new Error("push keys: the stored row is missing");
      try {
        return { publicKey: row.publicKey, privateKey: d.secretBox.open(row.privateKeySealed) };
      } catch (error) {
        if (!(error instanceof UnreadableSecretError)) throw error;
        await replaceUnreadable(row.privateKeySealed);
      }
    }
  }

  return {
    get() {
      loading ??= load().catch((error) => {
        // A database that failed this once is asked again next time.
        loading = null;
        throw error;
      });
      return loading;
    },
  };
}
