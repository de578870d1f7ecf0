/**
 * What the push calls answer, checked by the web app before it trusts an answer (zod/mini, as the
 * web bundle carries it; the request checks are in push-input.ts).
 */
import * as z from "../../domain/zod-mini.ts";

/** GET /v1/my/push. */
export const pushStatusSchema = z.object({
  /** The server's VAPID public key (base64url): a browser subscribes with it as its applicationServerKey. */
  publicKey: z.string(),
  /** How many devices the member has push on for. */
  devices: z.number(),
});
export type PushStatus = z.infer<typeof pushStatusSchema>;

/** POST /v1/my/push/devices and /v1/my/push/devices/remove. */
export const pushDevicesSchema = z.object({
  devices: z.number(),
});
export type PushDevices = z.infer<typeof pushDevicesSchema>;
