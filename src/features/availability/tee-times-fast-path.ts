/**
 * GET /v1/tee-times for a signed-in member, answered straight from Bun.serve (decision 195): the
 * read every open app makes, at every reload and at every `status: updated`. When nothing but the
 * kept answer is needed (a member whose session is known, whose password is their own, no release
 * wave about to leave) it is the same answer the app's route gives (availability.routes.ts), with
 * the same headers, without the app's router and middleware; in every other case it gives way to
 * the app, which answers as always (401, 403, a read held for a wave, a method other than GET).
 */
import type { AppDeps } from "../../deps.ts";
import { acceptsGzip } from "../../lib/compress.ts";
import { API_SECURITY_HEADERS } from "../../lib/security-headers.ts";
import { getSessionFromCookieHeader, rememberedSessionOfCookieHeader } from "../../services/sessions.ts";
import { keptJson, type KeptJson } from "../../services/kept-answers.ts";
import { readTeeTimesJson } from "./availability.service.ts";

// Built once: a Response copies the Headers it is given (so none is shared), which costs less than
// reading a plain object's entries again for every answer.
const PLAIN_HEADERS = new Headers({ ...API_SECURITY_HEADERS, "content-type": "application/json" });
const GZIP_HEADERS = new Headers({ ...API_SECURITY_HEADERS, "content-type": "application/json", "content-encoding": "gzip", vary: "accept-encoding" });

/**
 * The answer, or null when the app's own route must answer. With the member's session remembered
 * and the answer kept (nearly always), it is made without waiting on anything; otherwise both are
 * looked up as the app looks them up.
 */
export function answerTeeTimesFast(deps: AppDeps, req: Request): Response | null | Promise<Response | null> {
  if (req.method !== "GET") return null;
  const cookie = req.headers.get("cookie");
  const session = rememberedSessionOfCookieHeader(deps, cookie);
  const kept = keptJson(deps, "tee-times");
  if (session && kept) return respond(deps, req, session, kept);
  return (async () => respond(deps, req, await getSessionFromCookieHeader(deps, cookie), await readTeeTimesJson(deps)))();
}

function respond(deps: AppDeps, req: Request, session: { user: { mustSetPassword: boolean } } | null, answer: KeptJson): Response | null {
  if (!session || session.user.mustSetPassword) return null;
  if (deps.releaseEngine?.waveAboutToLeave()) return null;
  return acceptsGzip(req.headers.get("accept-encoding") ?? undefined)
    ? new Response(answer.gzipBlob(), { headers: GZIP_HEADERS })
    : new Response(answer.bodyBlob(), { headers: PLAIN_HEADERS });
}
