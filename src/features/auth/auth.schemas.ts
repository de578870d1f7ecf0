import { z } from "zod";

export const loginBodySchema = z.object({
  // Messages name UI-text keys: the one input check tells them in the member's wording.
  username: z.string().trim().min(1, "login.username_required").max(100),
  password: z.string().min(1, "login.password_required").max(200),
});

/** The answers' shapes live beside the web app's checks of them. */
export type { AuthStatus, SessionUser } from "./auth-responses.schemas.ts";
