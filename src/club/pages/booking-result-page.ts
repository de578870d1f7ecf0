import { z } from "zod";
import { CLUB_ERROR_KINDS, pageNotUnderstood } from "../errors.ts";
import { parseDocument, requireElement, requireText, validateRecord } from "./html.ts";

const PAGE = "booking result";

export const bookingResultSchema = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("ok"), ref: z.string().min(1), heading: z.string() }),
  z.object({
    outcome: z.literal("refused"),
    kind: z.enum(CLUB_ERROR_KINDS),
    /** The club's own words, for the member. */
    message: z.string().min(1),
  }),
]);
export type BookingResultPage = z.infer<typeof bookingResultSchema>;

/** The club writes its refusals for people; these patterns turn them into kinds. */
const REFUSAL_PATTERNS: { pattern: RegExp; kind: "slot_taken" | "not_yet_open" | "player_not_found" }[] = [
  { pattern: /no longer available|already (been )?booked|slot (is )?taken/i, kind: "slot_taken" },
  { pattern: /not yet open|not open for booking|not yet released/i, kind: "not_yet_open" },
  { pattern: /player not found|no member found|member not found/i, kind: "player_not_found" },
];

export function refusalKindOf(message: string): "slot_taken" | "not_yet_open" | "player_not_found" | "rule_refused" {
  return REFUSAL_PATTERNS.find((p) => p.pattern.test(message))?.kind ?? "rule_refused";
}

/** The page after a booking, edit or cancel post: a confirmation with a reference, or a refusal. */
export function parseBookingResultPage(html: string): BookingResultPage {
  const document = parseDocument(html);
  const section = requireElement(document, "section#booking-result", PAGE, "result section");
  if (section.classList.contains("result-ok")) {
    const ref = requireText(section, ".booking-ref", PAGE, "booking reference");
    return validateRecord(bookingResultSchema, { outcome: "ok", ref, heading: requireText(section, "h2", PAGE, "heading") }, PAGE);
  }
  if (section.classList.contains("result-error")) {
    const message = requireText(section, ".alert-error", PAGE, "refusal message");
    return validateRecord(bookingResultSchema, { outcome: "refused", kind: refusalKindOf(message), message }, PAGE);
  }
  throw pageNotUnderstood(PAGE, "a confirmation or a refusal");
}

/** The message of a 'not found' page (unknown booking or course), or null. */
export function parseNotFoundMessage(html: string): string | null {
  const text = parseDocument(html).querySelector("#not-found .alert-error")?.textContent?.trim();
  return text || null;
}
