/**
 * Type tests of the route contracts (decision 170), checked by `npm run typecheck` (tsc over test/):
 * each `@ts-expect-error` below marks a call that must not compile. Should the contracts stop
 * catching one of these drifts between the server and the web app, its marker is left unused and
 * the type check fails on it.
 */
import { answer, defineRoute, jsonBody, routeGroup } from "../../src/lib/contract.ts";
import { bookingsResponseSchema } from "../../src/features/bookings/bookings-responses.schemas.ts";
import { notificationsResponseSchema } from "../../src/features/notifications/notifications-responses.schemas.ts";
import { readinessResultSchema, watchesResponseSchema } from "../../src/features/watches/watches.schemas.ts";
import { createWatchSchema } from "../../src/features/watches/watches-input.ts";
import { api, getJson } from "../../web/lib/api.ts";
import type { BodyAt } from "../../web/lib/api-contracts.ts";
import { apiPaths } from "../../web/lib/api-paths.ts";

export function webCallsFollowTheContracts() {
  // What compiles: the schema reads what the route answers, the body is what it takes.
  void getJson(apiPaths.my.watches, watchesResponseSchema);
  void api.post(apiPaths.my.verifyCredentials, { email: "ana@example.com", password: "club-pass" });
  void api.post(apiPaths.my.cancelWatch(7));

  // @ts-expect-error: another route's schema does not read what /v1/my/watches answers.
  void getJson(apiPaths.my.watches, bookingsResponseSchema);
  // @ts-expect-error: no route has this path.
  void getJson("/v1/my/watchez", watchesResponseSchema);
  // @ts-expect-error: the readiness check is a POST; there is no GET at its path.
  void getJson(apiPaths.my.checkRequests, readinessResultSchema);
  // @ts-expect-error: the body lacks the password the route's contract requires.
  void api.post(apiPaths.my.verifyCredentials, { email: "ana@example.com" });
  // @ts-expect-error: the route takes no body.
  void api.post(apiPaths.my.cancelWatch(7), { reason: "changed my mind" });
  // @ts-expect-error: a query does not make another route of it.
  void getJson(`${apiPaths.my.notifications}?before=3`, watchesResponseSchema);
  void getJson(`${apiPaths.my.notifications}?before=3`, notificationsResponseSchema);
}

/** A watch's body as the web app builds it must be what the contract takes: a renamed field is a type error. */
export function aBodyFollowsItsSchema(body: BodyAt<typeof apiPaths.my.watches, "POST">) {
  const renamed = { ...body, from: body.fromTime };
  // @ts-expect-error: the contract's schema names fromTime, not from.
  const drifted: BodyAt<typeof apiPaths.my.watches, "POST"> = { ...renamed, fromTime: undefined };
  void drifted;
}

export function handlersAnswerWhatTheirContractSays() {
  const route = defineRoute({
    access: "member",
    method: "post",
    path: "/my/example",
    summary: "A contract written for this test",
    request: { body: jsonBody(createWatchSchema) },
    responses: { 200: answer(readinessResultSchema, "How many were checked") },
  });
  routeGroup().handle(route, (c) => c.json({ checked: c.req.valid("json").fromTime.length, problems: 0 }, 200));
  // @ts-expect-error: the answer lacks `problems`.
  routeGroup().handle(route, (c) => c.json({ checked: 1 }, 200));
  // @ts-expect-error: 201 is not a status the contract names.
  routeGroup().handle(route, (c) => c.json({ checked: 1, problems: 0 }, 201));
  // @ts-expect-error: the body has no field `from`.
  routeGroup().handle(route, (c) => c.json({ checked: c.req.valid("json").from.length, problems: 0 }, 200));
}
