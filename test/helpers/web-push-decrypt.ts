/**
 * The browser's half of Web Push, for tests: a device with its own P-256 key pair and
 * authentication secret (what a browser makes when it subscribes), and the RFC 8291 decryption of
 * an aes128gcm push body (RFC 8188) with WebCrypto alone, so a push Teebox encrypted with the
 * web-push library is read back by code that shares nothing with it.
 */

const encoder = new TextEncoder();

export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(text, "base64url"));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hmac(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, data));
}

/** The receiving device's keys: the ECDH private key, its public point (65 bytes) and the auth secret (16 bytes). */
export interface DeviceKeys {
  privateKey: CryptoKey;
  publicKey: Uint8Array<ArrayBuffer>;
  authSecret: Uint8Array<ArrayBuffer>;
}

/** A device's keys from the private scalar and public point as RFC 8291's example writes them (base64url). */
export async function deviceKeysFrom(privateD: string, publicPoint: string, authSecret: string): Promise<DeviceKeys> {
  const point = fromBase64Url(publicPoint);
  const jwk: JsonWebKey = { kty: "EC", crv: "P-256", d: privateD, x: toBase64Url(point.slice(1, 33)), y: toBase64Url(point.slice(33, 65)) };
  const privateKey = await crypto.subtle.importKey("jwk", jwk, { name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  return { privateKey, publicKey: point, authSecret: fromBase64Url(authSecret) };
}

/**
 * Decrypts an aes128gcm Web Push body: salt(16) | record size(4) | key id length(1) | the sender's
 * public key | one record. RFC 8291 §3.3–3.4: the ECDH secret and the auth secret give the input
 * keying material, which with the salt gives the content key and nonce (RFC 8188 §2.2–2.3).
 */
export async function decryptPushBody(body: Uint8Array, device: DeviceKeys): Promise<string> {
  const salt = body.slice(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idLength = body[20]!;
  const senderPublic = body.slice(21, 21 + idLength);
  const record = body.slice(21 + idLength);
  if (idLength !== 65 || senderPublic[0] !== 4) throw new Error(`the key id is not a P-256 point (${idLength} bytes)`);
  if (record.length > recordSize) throw new Error(`more than one record (${record.length} > ${recordSize})`);

  const sender = await crypto.subtle.importKey("raw", senderPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: sender }, device.privateKey, 256));
  const prkKey = await hmac(device.authSecret, ecdhSecret);
  const keyInfo = concat(encoder.encode("WebPush: info\0"), device.publicKey, senderPublic, new Uint8Array([1]));
  const ikm = await hmac(prkKey, keyInfo);
  const prk = await hmac(salt, ikm);
  const cek = (await hmac(prk, concat(encoder.encode("Content-Encoding: aes128gcm\0"), new Uint8Array([1])))).slice(0, 16);
  const nonce = (await hmac(prk, concat(encoder.encode("Content-Encoding: nonce\0"), new Uint8Array([1])))).slice(0, 12);

  const aes = await crypto.subtle.importKey("raw", cek, { name: "AES-GCM" }, false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, aes, record));
  // The last record ends with the delimiter 2, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error(`the record does not end with the last-record delimiter (found ${padded[end]})`);
  return new TextDecoder().decode(padded.slice(0, end));
}

/** A browser's subscription as `PushSubscription.toJSON()` gives it, and what the device needs to read its pushes. */
export interface TestDevice {
  subscription: { endpoint: string; expirationTime: number | null; keys: { p256dh: string; auth: string } };
  keys: DeviceKeys;
  decrypt(body: Uint8Array): Promise<string>;
}

/** A new device subscribed at `endpoint`: fresh keys, as a browser makes them. */
export async function createTestDevice(endpoint: string): Promise<TestDevice> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const authSecret = crypto.getRandomValues(new Uint8Array(16));
  const keys: DeviceKeys = { privateKey: pair.privateKey, publicKey, authSecret };
  return {
    subscription: { endpoint, expirationTime: null, keys: { p256dh: toBase64Url(publicKey), auth: toBase64Url(authSecret) } },
    keys,
    decrypt: (body) => decryptPushBody(body, keys),
  };
}
