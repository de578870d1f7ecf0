/** The member-facing text of a problem: the UI text for its key, else the message as given. */
import type { TryText } from "../../lib/text.ts";

export function problemText(tryText: TryText, problem: { message: string; errorKey?: string; context?: Record<string, string | number> }): string {
  const keyed = tryText(problem.errorKey, problem.context);
  // A keyed text whose {placeholders} could not be filled would read worse than the message.
  return keyed && !/\{\w+\}/.test(keyed) ? keyed : problem.message;
}
