/**
 * What the auth and profile calls answer: the web app checks each
 * answer against these before it trusts it. The login page reads them, so they use the domain's
 * small shape checker rather than zod, whose core alone would not fit the login bundle's budget.
 */
import { object, type ShapeOf } from "../../domain/shape-check.ts";
import { sessionUserSchema } from "../../domain/session-user.ts";

export { authStatusSchema, sessionUserFields, sessionUserSchema, type AuthStatus, type SessionUser } from "../../domain/session-user.ts";

/** POST /v1/auth/login and PUT /v1/my/profile answer with the user as it now is. */
export const userResponseSchema = object({ user: sessionUserSchema });
export type UserResponse = ShapeOf<typeof userResponseSchema>;
