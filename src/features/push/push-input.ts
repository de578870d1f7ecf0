/**
 * What the push calls accept: a browser's push subscription as `PushSubscription.toJSON()` gives
 * it, and the endpoint of one to remove. Strict: a field Teebox does not know is refused. Whether
 * the endpoint is a push service Teebox sends to, and whether the key lies on the curve, are
 * checked by the service (push.service.ts), which knows the operator's extra origins.
 */
import { z } from "zod";
import { isAuthSecretText, isP256PublicKeyText, PUSH_ENDPOINT_MAX } from "../../domain/push.ts";

const endpoint = z
  .string()
  .min(1)
  .max(PUSH_ENDPOINT_MAX)
  .refine((value) => URL.canParse(value), "push.endpoint_not_allowed");

/** POST /v1/my/push/devices. */
export const pushSubscriptionSchema = z.strictObject({
  endpoint,
  /** When the subscription ends (epoch ms), as the browser says; most say null. */
  expirationTime: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  keys: z.strictObject({
    p256dh: z.string().min(1).max(200).refine(isP256PublicKeyText, "push.bad_key"),
    auth: z.string().min(1).max(100).refine(isAuthSecretText, "push.bad_key"),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** POST /v1/my/push/devices/remove. */
export const pushEndpointSchema = z.strictObject({ endpoint });
export type PushEndpointInput = z.infer<typeof pushEndpointSchema>;
