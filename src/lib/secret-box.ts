/**
 * Seals club-site passwords with AES-256-GCM (a fresh 12-byte nonce each time).
 * Sealed form: `v1.<nonce b64url>.<ciphertext+tag b64url>`. The key comes from SECRET_KEY
 * (any string, stretched with SHA-256) or a random key file created with mode 0600.
 */
import type * as NodeCrypto from "node:crypto";
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "./random.ts";

let nodeCrypto: typeof NodeCrypto | null = null;
/** node:crypto (for AES-GCM) is loaded at the first value sealed or opened, not at every start (decision 194). */
const cipherModule = () => (nodeCrypto ??= require("node:crypto") as typeof NodeCrypto);

export interface SecretBox {
  seal(plain: string): string;
  /** The plain text; UnreadableSecretError when it was sealed under another key or is damaged. */
  open(sealed: string): string;
}

/**
 * A sealed value this key cannot open (a database restored without its key, a changed
 * SECRET_KEY, a damaged value). Its message never carries the crypto library's words.
 */
export class UnreadableSecretError extends Error {
  constructor() {
    super("A stored secret could not be decrypted with the current key.");
  }
}

/** Whether a sealed value opens with this box (for the monitor and the start-up check). */
export function canOpen(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

export function keyFromString(secret: string): Buffer {
  return new Bun.CryptoHasher("sha256").update(secret, "utf8").digest();
}

/** Reads the key file, creating it (32 random bytes, hex, mode 0600) on first start. */
export function loadOrCreateKeyFile(path: string): Buffer {
  if (!existsSync(path)) {
    // Written whole under another name, then linked into place only if the name is still free: two
    // processes starting at once on a new data folder end up with the one same key, never half a file.
    const staged = `${path}.${process.pid}.new`;
    writeFileSync(staged, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
    chmodSync(staged, 0o600);
    try {
      linkSync(staged, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(staged, { force: true });
    }
  }
  return keyFromString(readFileSync(path, "utf8").trim());
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("secret key must be 32 bytes");
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = cipherModule().createCipheriv("aes-256-gcm", key, nonce);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `v1.${nonce.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed) {
      const [version, nonceText, bodyText] = sealed.split(".");
      if (version !== "v1" || !nonceText || !bodyText) throw new UnreadableSecretError();
      try {
        const body = Buffer.from(bodyText, "base64url");
        const decipher = cipherModule().createDecipheriv("aes-256-gcm", key, Buffer.from(nonceText, "base64url"));
        decipher.setAuthTag(body.subarray(body.length - 16));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8");
      } catch {
        throw new UnreadableSecretError();
      }
    },
  };
}
