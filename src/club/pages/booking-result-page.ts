import { z } from "zod";
import { classifyRefusal } from "../classify.ts";
import { CLUB_ERROR_KINDS, pageNotUnderstood } from "../errors.ts";
import type { PageReadOptions } from "../text.ts";
import { hasWord, parseDocument, spacedText, tagOf, textOf, validateRecord, type HtmlDocument, type HtmlElement } from "./html.ts";

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

/** Kept for callers that classify a message themselves; the table lives in classify.ts. */
export const refusalKindOf = classifyRefusal;

const RESULT_WORD = /^(result|alert|error|errors|danger|warning|success|message|msg|notice|flash|confirmation|confirmed|panel|callout|feedback)$/;
const ERROR_WORD = /^(error|errors|danger|warning|fail|failed|failure|refused|denied)$/;
const SUCCESS_WORD = /^(success|ok|confirmed|confirmation|done)$/;
const REF_IN_TEXT = /\b(?:confirmation|reference|ref\.?|booking)\s*(?:number|no\.?|id|#)?\s*(?:is)?\s*[:#]?\s*([A-Z0-9][A-Z0-9-]*\d[A-Z0-9-]*)\b/i;
const POSITIVE = /\b(confirmed|booked|success(ful(ly)?)?|reserved|updated|cancell?ed|thank\s+you)\b/i;

/** Elements that hold a result: role=alert or a box named like one, innermost first. */
function resultBoxes(document: HtmlDocument): HtmlElement[] {
  const boxes = [...document.querySelectorAll("*")].filter(
    (e) =>
      !["html", "body", "form", "input", "button", "a", "nav"].includes(tagOf(e)) &&
      ((e.getAttribute("role") ?? "").toLowerCase() === "alert" || hasWord(e, RESULT_WORD)) &&
      textOf(e) !== "",
  );
  return boxes.filter((box) => !boxes.some((other) => other !== box && box.contains(other)));
}

function refIn(root: HtmlElement): string | null {
  for (const element of root.querySelectorAll("*")) {
    if (hasWord(element, /^(ref|reference|confirmation|bookingref|number)$/) && /\d/.test(textOf(element)) && element.children.length === 0)
      return textOf(element).replace(/^#\s*/, "");
  }
  return REF_IN_TEXT.exec(textOf(root))?.[1] ?? null;
}

function headingIn(root: HtmlElement): string {
  for (const element of [root, ...root.querySelectorAll("*")]) if (/^h[1-6]$/.test(tagOf(element))) return textOf(element);
  return "";
}

/**
 * The page after a booking, edit or cancel post, read by meaning: a confirmation carries a
 * reference and a positive word; a refusal is the club's message in an alert or error box,
 * sorted into a kind by its phrasing.
 */
export function parseBookingResultPage(html: string, _options: PageReadOptions = {}): BookingResultPage {
  const document = parseDocument(html);
  const body = document.body ?? document.documentElement;
  const boxes = resultBoxes(document);
  const outer = boxes.map((box) => (box.parentElement && box.parentElement !== body ? box.parentElement : box));
  const isErrorBox = (box: HtmlElement) => hasWord(box, ERROR_WORD);
  const isSuccessBox = (box: HtmlElement) => hasWord(box, SUCCESS_WORD);
  // An error box is a refusal even when it names a booking ('SWB-1 is already booked').
  const candidates = [...boxes, ...outer.filter((_, i) => !isErrorBox(boxes[i]))].filter((box) => !isErrorBox(box));
  const successBox = candidates.find((box) => isSuccessBox(box) || (refIn(box) !== null && POSITIVE.test(textOf(box)) && classifyRefusal(textOf(box)) === "refused_unknown"));
  if (successBox) {
    const index = boxes.indexOf(successBox);
    const scope = index >= 0 ? outer[index] : successBox;
    const ref = refIn(successBox) ?? refIn(scope);
    if (!ref) throw pageNotUnderstood(PAGE, "booking reference");
    return validateRecord(bookingResultSchema, { outcome: "ok", ref, heading: headingIn(scope) || headingIn(successBox) }, PAGE);
  }
  const refusal = boxes.find((box) => !/^h[1-6]$/.test(tagOf(box)));
  if (refusal) {
    const message = spacedText(refusal);
    return validateRecord(bookingResultSchema, { outcome: "refused", kind: classifyRefusal(message), message }, PAGE);
  }
  throw pageNotUnderstood(PAGE, "a confirmation or a refusal");
}

/** The message of a 'not found' page (unknown booking or course), or null. */
export function parseNotFoundMessage(html: string): string | null {
  const text = parseDocument(html).querySelector("#not-found .alert-error")?.textContent?.trim();
  return text || null;
}
