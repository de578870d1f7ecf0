import { z } from "zod";
import { parseDocument, readCsrfMeta, requireText, validateRecord } from "./html.ts";

const PAGE = "member home";

export const homePageSchema = z.object({
  csrf: z.string().min(1),
  memberName: z.string().min(1),
  membershipNumber: z.string().min(1),
});
export type HomePage = z.infer<typeof homePageSchema>;

export function parseHomePage(html: string): HomePage {
  const document = parseDocument(html);
  const csrf = readCsrfMeta(document, PAGE);
  const memberName = requireText(document, "#member-home .member-name", PAGE, "member name");
  const membershipNumber = requireText(document, "#member-home .member-number", PAGE, "membership number");
  return validateRecord(homePageSchema, { csrf, memberName, membershipNumber }, PAGE);
}
