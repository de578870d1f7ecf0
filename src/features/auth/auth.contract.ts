/** The contracts of signing in and out and of the session's status (decision 170). */
import { answer, defineRoute, jsonBody, noContent, refusals } from "../../lib/contract.ts";
import { authStatusSchema, userResponseSchema } from "./auth-responses.schemas.ts";
import { loginBodySchema } from "./auth.schemas.ts";

const tags = ["Sign-in"];

export const authRoutes = {
  login: defineRoute({
    access: "public",
    method: "post",
    path: "/auth/login",
    tags,
    summary: "Sign in: sets the session cookie",
    request: { body: jsonBody(loginBodySchema) },
    responses: {
      200: answer(userResponseSchema, "The signed-in user (the session cookie is set)"),
      ...refusals(401, 429),
    },
  }),
  logout: defineRoute({
    access: "public",
    method: "post",
    path: "/auth/logout",
    tags,
    summary: "Sign out: ends the session and clears its cookie",
    responses: { 204: noContent("Signed out (also when no one was signed in)") },
  }),
  status: defineRoute({
    access: "public",
    method: "get",
    path: "/auth/status",
    tags,
    summary: "Who is signed in, if anyone",
    responses: { 200: answer(authStatusSchema, "The session's user, or none") },
  }),
};
