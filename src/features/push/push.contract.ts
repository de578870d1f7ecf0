/** The contracts of push to a member's devices (decisions 170 and 187). */
import { answer, defineRoute, jsonBody } from "../../lib/contract.ts";
import { pushEndpointSchema, pushSubscriptionSchema } from "./push-input.ts";
import { pushDevicesSchema, pushStatusSchema } from "./push.schemas.ts";

const tags = ["Push"];

export const pushRoutes = {
  status: defineRoute({
    access: "member",
    method: "get",
    path: "/my/push",
    tags,
    summary: "The server's VAPID public key to subscribe with, and how many devices the member has push on for",
    responses: { 200: answer(pushStatusSchema, "The key and the count") },
  }),
  addDevice: defineRoute({
    access: "member",
    method: "post",
    path: "/my/push/devices",
    tags,
    summary:
      "Turn push on for this device: its browser's push subscription (`PushSubscription.toJSON()`), on a push service Teebox sends to. The same endpoint again renews it; beyond 10 devices the member's oldest is dropped",
    request: { body: jsonBody(pushSubscriptionSchema) },
    responses: { 200: answer(pushDevicesSchema, "How many devices the member now has push on for") },
  }),
  removeDevice: defineRoute({
    access: "member",
    method: "post",
    path: "/my/push/devices/remove",
    tags,
    summary: "Turn push off for the device with this endpoint (one of the member's own; none is not an error)",
    request: { body: jsonBody(pushEndpointSchema) },
    responses: { 200: answer(pushDevicesSchema, "How many devices the member still has push on for") },
  }),
};
