import { z } from "zod";
import { pageNotUnderstood } from "../errors.ts";
import type { PageReadOptions } from "../text.ts";
import { hasWord, parseDocument, tagOf, textOf, validateRecord, type HtmlDocument, type HtmlElement } from "./html.ts";

const PAGE = "login";

export const loginPageSchema = z.object({
  /** The hidden anti-forgery token that must go back with the credentials. */
  csrf: z.string().min(1),
  /** Where the form posts; '' means the login page itself. */
  action: z.string(),
  /** The club's error line (wrong credentials, expired form), or null. */
  error: z.string().nullable(),
  /** The names of the email-or-username and password fields, whatever the club calls them. */
  userField: z.string().min(1),
  passwordField: z.string().min(1),
  /** Every hidden field of the form (token, return address …), posted back as they are. */
  hidden: z.record(z.string(), z.string()),
});
export type LoginPage = z.infer<typeof loginPageSchema>;

const TOKEN_NAME = /csrf|xsrf|token|authenticity|verification|nonce/i;
const USER_WORDS = /e-?mail|user|login|member|account|id\b/i;
const NOT_TYPED = new Set(["hidden", "password", "submit", "button", "checkbox", "radio", "reset", "image", "file"]);

const typeOf = (input: HtmlElement) => (input.getAttribute("type") ?? "text").toLowerCase();

/**
 * The club's login form, whatever its id: one password field and a field to type a login in. A
 * change-password form (two or more password fields) on a member page is not a login form, or
 * every such page would look like an ended session.
 */
function loginFormOf(document: HtmlDocument): HtmlElement | null {
  return (
    [...document.querySelectorAll("form")].find((form) => {
      const inputs = [...form.querySelectorAll("input")];
      return inputs.filter((input) => typeOf(input) === "password").length === 1 && inputs.some((input) => !NOT_TYPED.has(typeOf(input)));
    }) ?? null
  );
}

/** The words a person sees beside a field: its label (for= or around it), placeholder, or the cell before it. */
function labelOf(input: HtmlElement, document: HtmlDocument): string {
  const id = input.getAttribute("id");
  const byFor = id ? [...document.querySelectorAll("label")].find((label) => label.getAttribute("for") === id) : undefined;
  const around = input.closest("label");
  const cell = input.closest("td")?.previousElementSibling;
  return [textOf(byFor), textOf(around), input.getAttribute("placeholder") ?? "", input.getAttribute("aria-label") ?? "", textOf(cell)].join(" ");
}

/** How sure we are that an input is the email or username field. */
function userScore(input: HtmlElement, document: HtmlDocument): number {
  const autocomplete = (input.getAttribute("autocomplete") ?? "").toLowerCase();
  if (autocomplete === "username" || autocomplete === "email" || typeOf(input) === "email") return 3;
  if (USER_WORDS.test(`${input.getAttribute("name") ?? ""} ${input.getAttribute("id") ?? ""}`) || USER_WORDS.test(labelOf(input, document))) return 2;
  return typeOf(input) === "text" ? 1 : 0;
}

function errorLineOf(document: HtmlDocument): string | null {
  for (const element of document.querySelectorAll("*")) {
    if (["input", "form", "label", "html", "body"].includes(tagOf(element))) continue;
    const isAlert = (element.getAttribute("role") ?? "").toLowerCase() === "alert" || hasWord(element, /^(error|errors|danger|flash|invalid|alert|warning)$/);
    if (isAlert && textOf(element)) return textOf(element);
  }
  return null;
}

/**
 * The login form, found by what its fields are: the form with a password field, the email or
 * username field by type, autocomplete, name or label, and the anti-forgery token in whichever
 * hidden field carries one.
 */
export function parseLoginPage(html: string, _options: PageReadOptions = {}): LoginPage {
  const document = parseDocument(html);
  const form = loginFormOf(document);
  if (!form) throw pageNotUnderstood(PAGE, "login form with a password field");
  const inputs = [...form.querySelectorAll("input")];
  const password = inputs.find((input) => typeOf(input) === "password");
  const passwordField = password?.getAttribute("name") ?? "";
  if (!passwordField) throw pageNotUnderstood(PAGE, "name of the password field");
  const typed = inputs.filter((input) => !NOT_TYPED.has(typeOf(input)) && input.getAttribute("name"));
  const user = typed.map((input) => ({ input, score: userScore(input, document) })).sort((a, b) => b.score - a.score)[0];
  if (!user || user.score === 0) throw pageNotUnderstood(PAGE, "email or username field");
  const hidden: Record<string, string> = {};
  for (const input of inputs) {
    const name = input.getAttribute("name");
    if (typeOf(input) === "hidden" && name) hidden[name] = input.getAttribute("value") ?? "";
  }
  const named = Object.entries(hidden).find(([name, value]) => TOKEN_NAME.test(name) && value.trim());
  const longest = Object.values(hidden)
    .filter((value) => value.trim().length >= 16)
    .sort((a, b) => b.length - a.length)[0];
  const csrf = named?.[1] ?? longest;
  if (!csrf) throw pageNotUnderstood(PAGE, "form token (a hidden field)");
  return validateRecord(
    loginPageSchema,
    { csrf: csrf.trim(), action: form.getAttribute("action") ?? "", error: errorLineOf(document), userField: user.input.getAttribute("name"), passwordField, hidden },
    PAGE,
  );
}

/** A login form has a password field, so its page has the word somewhere, however it is written. */
const PASSWORD_WORD = /password/i;

/**
 * True when a page is a login form (the club sends it when a session has ended). Every page the
 * club sends is asked this before it is read, so a page without the word "password" is answered
 * without parsing it: at a release instant that was half the work of reading each answer.
 */
export function isLoginPage(html: string): boolean {
  return PASSWORD_WORD.test(html) && loginFormOf(parseDocument(html)) !== null;
}
