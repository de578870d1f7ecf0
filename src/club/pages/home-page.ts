import { z } from "zod";
import { pageNotUnderstood } from "../errors.ts";
import { hasWord, parseDocument, readPageToken, textOf, validateRecord, type HtmlDocument, type HtmlElement } from "./html.ts";

const PAGE = "member home";

export const homePageSchema = z.object({
  csrf: z.string().min(1),
  /** The form field the token goes back in, as the club names it. */
  csrfField: z.string().min(1),
  memberName: z.string().min(1),
  membershipNumber: z.string().min(1),
});
export type HomePage = z.infer<typeof homePageSchema>;

/** An element whose class or id says it holds both words ('member-name', 'member_no'…). */
function markedBy(document: HtmlDocument, first: RegExp, second: RegExp): HtmlElement | null {
  for (const element of document.querySelectorAll("[class], [id]")) {
    if (hasWord(element, first) && hasWord(element, second) && textOf(element)) return element;
  }
  return null;
}

export function parseHomePage(html: string): HomePage {
  const document = parseDocument(html);
  const token = readPageToken(document);
  if (!token) throw pageNotUnderstood(PAGE, "form token (csrf-token meta or hidden field)");
  const memberName = textOf(markedBy(document, /^(member|user|account)$/, /^name$/));
  if (!memberName) throw pageNotUnderstood(PAGE, "member name");
  const membershipNumber = textOf(markedBy(document, /^(member|membership)$/, /^(number|no|id)$/));
  if (!membershipNumber) throw pageNotUnderstood(PAGE, "membership number");
  return validateRecord(homePageSchema, { csrf: token.value, csrfField: token.field, memberName, membershipNumber }, PAGE);
}
