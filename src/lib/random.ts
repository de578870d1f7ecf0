/**
 * Random bytes from the runtime's Web Crypto, not node:crypto: every module that imported
 * node:crypto made each start load it (about 7 ms), and only the secret box's cipher needs it
 * (decision 194). SHA-256 is Bun.CryptoHasher, for the same reason.
 */
export function randomBytes(size: number): Buffer {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(size)));
}
