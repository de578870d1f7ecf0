import { z } from "zod";

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, "Username is required.").max(100),
  password: z.string().min(1, "Password is required.").max(200),
});

/** The answers' shapes live beside the web app's checks of them. */
export type { AuthStatus, SessionUser } from "./auth-responses.schemas.ts";
