/** The UI text keyed by the server's errorKey (or its message), else a fallback. */
import { ApiError } from "../../lib/api.ts";
import type { TryText } from "../../lib/text.ts";

export function keyedErrorText(error: unknown, tryText: TryText, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return tryText(error.errorKey) ?? tryText(error.serverMessage) ?? fallback;
}
