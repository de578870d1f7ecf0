/**
 * UI text lookup: the admin's stored text, else the catalogue default, with {placeholder}s filled.
 */
import { useCallback } from "react";
import type { UiTextKey } from "../../src/domain/ui-text/index.ts";
import { lookupText, setDefaultTexts } from "./text-catalogue.ts";
import { useTextStore } from "./text-store.ts";

export { lookupText };

/**
 * Installs the whole default catalogue (the first chunk has only the common and login texts; the
 * member area's chunk brings the rest, web/pages/member-area.ts; component tests install it too).
 */
export function installDefaultTexts(all: Record<string, string>): void {
  setDefaultTexts(all);
  useTextStore.setState((state) => ({ defaultsVersion: state.defaultsVersion + 1 })); // shown screens re-read
}

export type TextContext = Record<string, string | number>;
export type Translate = (key: UiTextKey, context?: TextContext) => string;

/** Replaces `{name}` with `context.name`; unknown placeholders stay visible so a missing value is noticed. */
export function fillPlaceholders(text: string, context?: TextContext): string {
  if (!context) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(context, name) ? String(context[name]) : whole));
}

export function resolveText(key: UiTextKey, overrides: Record<string, string>, context?: TextContext): string {
  return fillPlaceholders(lookupText(key, overrides) ?? key, context);
}

/**
 * `filled` is the caller's own, already filled version of the same text (a server message): it
 * stands in when the keyed text has {placeholders} whose values did not come along.
 */
export type TryText = (key: string | undefined, context?: TextContext, filled?: string) => string | undefined;

/** `const t = useText(); t('login.title')` */
export function useText(): Translate {
  const overrides = useTextStore((state) => state.overrides);
  const defaultsVersion = useTextStore((state) => state.defaultsVersion);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new defaults version (another language's texts) makes a new function, so screens render again.
  return useCallback<Translate>((key, context) => resolveText(key, overrides, context), [overrides, defaultsVersion]);
}

/**
 * For keys that come from elsewhere (a server errorKey or message, a toast's textKey):
 * undefined when there is no text (or only one with unfilled placeholders and no `filled`), so the caller can fall back.
 */
export function useTextLookup(): TryText {
  const overrides = useTextStore((state) => state.overrides);
  const defaultsVersion = useTextStore((state) => state.defaultsVersion);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new defaults version makes a new function, so screens render again.
  return useCallback<TryText>(
    (key, context, filled) => {
      if (!key) return undefined;
      const text = lookupText(key, overrides);
      if (text === undefined) return undefined;
      const resolved = fillPlaceholders(text, context);
      // Raw braces (e.g. {maxGuests}) are never shown.
      return /\{\w+\}/.test(resolved) ? filled : resolved;
    },
    [overrides, defaultsVersion],
  );
}

/** The same lookup outside React (stores, socket handlers). */
export function getText(key: UiTextKey, context?: TextContext): string {
  return resolveText(key, useTextStore.getState().overrides, context);
}
