/** The contracts of the member's own account: profile and password (decision 170). */
import { answer, defineRoute, jsonBody, noContent, refusals } from "../../lib/contract.ts";
import { object } from "../../domain/shape-check.ts";
import { sessionUserSchema } from "../../domain/session-user.ts";
import { changePasswordSchema, setPasswordSchema, updateProfileSchema } from "./profile.schemas.ts";

const tags = ["Profile"];

/** The answer's shape is the sign-in's (src/features/auth/auth-responses.schemas.ts), which the web app checks it with. */
const userResponseSchema = object({ user: sessionUserSchema });

export const profileRoutes = {
  update: defineRoute({
    access: "member",
    method: "put",
    path: "/my/profile",
    tags,
    summary: "Save the member's details and defaults; a new club login is checked with the club before it is stored",
    request: { body: jsonBody(updateProfileSchema) },
    responses: { 200: answer(userResponseSchema, "The user as now saved"), ...refusals(404, 502, 504) },
  }),
  changePassword: defineRoute({
    access: "member",
    method: "post",
    path: "/my/user/change-password",
    tags,
    summary: "Change the Teebox password (the member's other sessions end)",
    request: { body: jsonBody(changePasswordSchema) },
    responses: { 204: noContent("Changed"), ...refusals(404) },
  }),
  setPassword: defineRoute({
    access: "member",
    method: "post",
    path: "/my/user/set-password",
    tags,
    summary: "Choose the first own password (the setup wizard): the current one is the one an admin gave",
    request: { body: jsonBody(setPasswordSchema) },
    responses: { 204: noContent("Set"), ...refusals(404) },
  }),
};
