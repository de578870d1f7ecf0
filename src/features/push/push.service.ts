/**
 * The member's push calls (decision 187): the key to subscribe with, and turning push on or off
 * for a device. A subscription is refused unless its endpoint is a push service Teebox sends to
 * and its key is a point of the P-256 curve, so the push job never posts elsewhere nor holds a
 * device no push can be encrypted for.
 */
import type { AppDeps } from "../../deps.ts";
import { base64UrlBytes, isAllowedPushEndpoint } from "../../domain/push.ts";
import { textError } from "../../lib/errors.ts";
import { deviceCount, removeOwnDevice, saveDevice } from "../../services/push-subscriptions.ts";
import type { PushEndpointInput, PushSubscriptionInput } from "./push-input.ts";

/** What the push calls use of the app. */
export type PushDeps = Pick<AppDeps, "database" | "clock" | "pushKeys" | "pushServiceOrigins">;

export async function pushStatus(deps: PushDeps, userId: number): Promise<{ publicKey: string; devices: number }> {
  const { publicKey } = await deps.pushKeys.get();
  return { publicKey, devices: await deviceCount(deps.database.db, userId) };
}

/** Whether the bytes are a point of P-256 (WebCrypto refuses one that is not). */
async function isCurvePoint(bytes: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    await crypto.subtle.importKey("raw", bytes, { name: "ECDH", namedCurve: "P-256" }, false, []);
    return true;
  } catch {
    return false;
  }
}

export async function addDevice(deps: PushDeps, userId: number, input: PushSubscriptionInput): Promise<{ devices: number }> {
  if (!isAllowedPushEndpoint(input.endpoint, deps.pushServiceOrigins ?? [])) throw textError(400, "push.endpoint_not_allowed");
  if (!(await isCurvePoint(base64UrlBytes(input.keys.p256dh)!))) throw textError(400, "push.bad_key");
  await saveDevice(
    deps.database,
    userId,
    { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, expiresAt: input.expirationTime ?? null },
    deps.clock.now(),
  );
  return { devices: await deviceCount(deps.database.db, userId) };
}

export async function removeDevice(deps: PushDeps, userId: number, input: PushEndpointInput): Promise<{ devices: number }> {
  await removeOwnDevice(deps.database, userId, input.endpoint);
  return { devices: await deviceCount(deps.database.db, userId) };
}
