import { z } from "zod";
import { parseDocument, requireElement, textOf, validateRecord } from "./html.ts";

const PAGE = "login";

export const loginPageSchema = z.object({
  /** The hidden anti-forgery token that must go back with the credentials. */
  csrf: z.string().min(1),
  action: z.string().min(1),
  /** The club's error line (wrong credentials, expired form), or null. */
  error: z.string().nullable(),
});
export type LoginPage = z.infer<typeof loginPageSchema>;

export function parseLoginPage(html: string): LoginPage {
  const document = parseDocument(html);
  const form = requireElement(document, "form#login-form", PAGE, "login form");
  const csrf = requireElement(form, 'input[name="_csrf"]', PAGE, "form token (_csrf)").getAttribute("value") ?? "";
  requireElement(form, 'input[name="email"]', PAGE, "email field");
  requireElement(form, 'input[name="password"]', PAGE, "password field");
  const error = textOf(document.querySelector(".alert-error")) || null;
  return validateRecord(loginPageSchema, { csrf, action: form.getAttribute("action") || "/login", error }, PAGE);
}

/** True when a page is the login form (the club sends it when a session has ended). */
export function isLoginPage(html: string): boolean {
  return parseDocument(html).querySelector("form#login-form") !== null;
}
