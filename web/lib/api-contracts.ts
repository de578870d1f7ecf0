/**
 * The server's route contracts (src/features/<group>/<group>.contract.ts, decision 170), as types
 * only: the web bundle carries none of their code (scripts/check-imports.ts refuses a value import).
 * From them come the web app's request and answer types: a call's path picks its contract, the
 * contract says what body the call sends and what a successful answer is, so a server change the
 * web app does not follow fails `npm run typecheck`.
 */
import type { adminConfigRoutes } from "../../src/features/admin/admin-config.contract.ts";
import type { adminRoutes } from "../../src/features/admin/admin.contract.ts";
import type { authRoutes } from "../../src/features/auth/auth.contract.ts";
import type { availabilityRoutes } from "../../src/features/availability/availability.contract.ts";
import type { bookingsRoutes } from "../../src/features/bookings/bookings.contract.ts";
import type { calendarRoutes } from "../../src/features/calendar/calendar.contract.ts";
import type { clientLogRoutes } from "../../src/features/client-log/client-log.contract.ts";
import type { clubRoutes } from "../../src/features/club/club.contract.ts";
import type { notificationsRoutes } from "../../src/features/notifications/notifications.contract.ts";
import type { partnersRoutes } from "../../src/features/partners/partners.contract.ts";
import type { playersRoutes } from "../../src/features/players/players.contract.ts";
import type { profileRoutes } from "../../src/features/profile/profile.contract.ts";
import type { pushRoutes } from "../../src/features/push/push.contract.ts";
import type { documentRoutes } from "../../src/features/system/probes.contract.ts";
import type { systemRoutes } from "../../src/features/system/system.contract.ts";
import type { seriesRoutes } from "../../src/features/series/series.contract.ts";
import type { watchesRoutes } from "../../src/features/watches/watches.contract.ts";

type Groups =
  | typeof adminConfigRoutes
  | typeof adminRoutes
  | typeof authRoutes
  | typeof availabilityRoutes
  | typeof bookingsRoutes
  | typeof calendarRoutes
  | typeof clientLogRoutes
  | typeof clubRoutes
  | typeof notificationsRoutes
  | typeof playersRoutes
  | typeof profileRoutes
  | typeof pushRoutes
  | typeof documentRoutes
  | typeof systemRoutes
  | typeof watchesRoutes
  | typeof seriesRoutes
  | typeof partnersRoutes;

/** What the web app reads of a contract. */
interface Contract {
  method: string;
  path: string;
  responses: object;
  request?: object;
}

type RoutesOf<G> = G extends unknown ? G[keyof G] : never;

/** Every /v1 route's contract. */
export type ApiRoute = Extract<RoutesOf<Groups>, Contract>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A contract's path with each `{param}` as any text: `/my/watches/{id}/cancel` → `/my/watches/${string}/cancel`. */
type Filled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Filled<Tail>}` : P;

/** The address of a route as the web app calls it (under /v1), with or without a query. */
export type PathOf<R extends Contract> = `/v1${Filled<R["path"]>}`;
export type UrlOf<R extends Contract> = PathOf<R> | `${PathOf<R>}?${string}`;

/** The routes of each method, worked out once. */
type RoutesByMethod = { [M in HttpMethod]: Extract<ApiRoute, { method: Lowercase<M> }> };

/** The contract of the route a call goes to: its method, and the address its URL matches. */
export type RouteAt<U extends string, M extends HttpMethod> = RoutesByMethod[M] extends infer R ? (R extends Contract ? (U extends UrlOf<R> ? R : never) : never) : never;

/** The addresses the web app may call with this method. */
export type ApiUrl<M extends HttpMethod> = RoutesByMethod[M] extends infer R ? (R extends Contract ? UrlOf<R> : never) : never;

/** A zod schema's output and input, read from its type without relating it to zod's classes (that is slow to check). */
type Output<S> = S extends { _zod: { output: infer O } } ? O : never;
type Input<S> = S extends { _zod: { input: infer I } } ? I : never;

type JsonSchemaOf<A> = A extends { content: { "application/json": { schema: infer S } } } ? S : never;
type SuccessStatus = 200 | 201 | 204;

/** What a route answers when it succeeds, as its contract says (undefined for a 204). */
export type AnswerOf<R extends Contract> = R extends Contract ? SuccessAnswer<R["responses"]> : never;

type SuccessAnswer<Responses> = {
  [S in keyof Responses]: S extends SuccessStatus ? ([JsonSchemaOf<Responses[S]>] extends [never] ? undefined : Output<JsonSchemaOf<Responses[S]>>) : never;
}[keyof Responses];

/** The JSON body a route takes, as its contract says (undefined when it takes none). */
export type BodyOf<R extends Contract> = R extends { request: { body: { content: { "application/json": { schema: infer S } } } } } ? Input<S> : undefined;

/** The answer and body of the call with this URL and method. */
export type AnswerAt<U extends string, M extends HttpMethod> = AnswerOf<RouteAt<U, M>>;
export type BodyAt<U extends string, M extends HttpMethod> = BodyOf<RouteAt<U, M>>;
