/** The contracts of checking a member's club login and of the club's status (decision 170). */
import { z } from "@hono/zod-openapi";
import { answer, defineRoute, json, jsonBody, refusals } from "../../lib/contract.ts";
import { clubStatusSchema } from "./club.schemas.ts";

const credentialsSchema = z.object({
  // Messages name UI-text keys: the one input check tells them in the member's wording.
  email: z.string().trim().min(1, "profile.email_required").max(200).email("profile.email_invalid"),
  password: z.string().min(1, "setup.club_password_required").max(200),
});

const tags = ["Club"];

export const clubRoutes = {
  verifyCredentials: defineRoute({
    access: "member",
    method: "post",
    path: "/my/verify-credentials",
    tags,
    summary: "Check a club login with the club before it is saved (limited per member and per club email; every try audited)",
    request: { body: jsonBody(credentialsSchema) },
    responses: {
      200: json(z.object({ ok: z.literal(true) }), "The club accepted the login"),
      ...refusals(400, 429, 502, 504),
    },
  }),
  status: defineRoute({
    access: "admin",
    method: "get",
    path: "/system/club",
    tags,
    summary: "Which club Teebox talks to, and whether it answers",
    responses: { 200: answer(clubStatusSchema, "The club's address, mode and reachability") },
  }),
};
