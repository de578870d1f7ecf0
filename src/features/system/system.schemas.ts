/**
 * What the public system calls answer, checked by the web app before it trusts them.
 * The UI text is read on the login page, so these use the domain's small shape checker, not zod.
 */
import { FORM_OPTION_CATEGORIES, type FormOption } from "../../domain/form-options.ts";
import { array, object, oneOf, record, string, type Shape } from "../../domain/shape-check.ts";

/** GET /v1/form-options. */
export const formOptionsResponseSchema: Shape<FormOption[]> = array(object({ category: oneOf(FORM_OPTION_CATEGORIES), value: string() }));

/** GET /v1/ui-text: dotted key to text. */
export const uiTextResponseSchema = record(string());
