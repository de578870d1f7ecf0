import { parseBookingDate } from "../../domain/manila-time.ts";
import { pageNotUnderstood } from "../errors.ts";
import { clubAdvisorySchema, type ClubAdvisory } from "../records.ts";
import { parseDocument, requireElement, requireText, textOf, validateRecord, type HtmlElement } from "./html.ts";

const PAGE = "advisories";

/** Public advisories; the content keeps its bullet characters for the UI to split on. */
export function parseAdvisoriesPage(html: string): ClubAdvisory[] {
  const document = parseDocument(html);
  const section = requireElement(document, "section#advisories", PAGE, "advisories section");
  if (section.querySelector("#no-advisories")) return [];
  const articles = [...section.querySelectorAll("article.advisory")];
  if (articles.length === 0) throw pageNotUnderstood(PAGE, "advisory entries or a 'no advisories' notice");
  return articles.map(readAdvisory);
}

function readAdvisory(article: HtmlElement, index: number): ClubAdvisory {
  const title = requireText(article, ".advisory-title", PAGE, `title of advisory ${index + 1}`);
  const dateText = textOf(article.querySelector(".advisory-date"));
  const eventDate = dateText ? parseBookingDate(dateText) : null;
  if (dateText && !eventDate) throw pageNotUnderstood(PAGE, `a readable event date of '${title}' (got '${dateText}')`);
  const content = textOf(requireElement(article, ".advisory-content", PAGE, `content of '${title}'`));
  return validateRecord(clubAdvisorySchema, { title, eventDate, content }, PAGE);
}
