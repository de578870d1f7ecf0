/**
 * A notification's words: its UI-text key filled from its context, in the wording an admin chose
 * (else the default), with a failure's reason rendered from its own key first.
 */
import { renderReason } from "../../domain/request-reasons.ts";
import type { TextOf } from "../../services/options-and-texts.service.ts";

/** The keys a notification's text reads: its own and its reason's. */
export function textKeysOf(notification: { textKey: string; context: Record<string, string> }): string[] {
  return notification.context.reasonKey ? [notification.textKey, notification.context.reasonKey] : [notification.textKey];
}

/** The placeholders with {reason} rendered from the reason's key in the current wording. */
export function contextWithReason(context: Record<string, string>, text: TextOf): Record<string, string> {
  return context.reasonKey ? { ...context, reason: renderReason(text(context.reasonKey), context) } : context;
}

export function renderNotification(key: string, context: Record<string, string>, text: TextOf): string {
  return renderReason(text(key), contextWithReason(context, text));
}
