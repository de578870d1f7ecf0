/**
 * Admin-edited UI text overrides, loaded from GET /v1/ui-text (public) and reloaded when the
 * socket says `uiTextUpdated`. Defaults live in src/domain/ui-text.
 */
import { create } from "zustand";
import { apiRequest } from "./api.ts";
import { clientLog } from "./client-log.ts";

export const UI_TEXT_URL = "/v1/ui-text";

interface TextState {
  overrides: Record<string, string>;
  /** Bumped when the full default catalogue arrives (web/lib/text.ts), so shown texts re-render. */
  defaultsVersion: number;
  isLoaded: boolean;
  loadTexts(): Promise<void>;
  setOverrides(overrides: Record<string, string>): void;
}

export const useTextStore = create<TextState>()((set) => ({
  overrides: {},
  defaultsVersion: 0,
  isLoaded: false,
  async loadTexts() {
    try {
      const texts = await apiRequest<unknown>(UI_TEXT_URL);
      set({ overrides: onlyStrings(texts), isLoaded: true });
    } catch (error) {
      // Defaults keep every screen readable; a fetch failure is only logged (spec §8).
      clientLog.error("Failed to load UI text", { error: error instanceof Error ? error.message : String(error) });
      set({ isLoaded: true });
    }
  },
  setOverrides(overrides) {
    set({ overrides, isLoaded: true });
  },
}));

function onlyStrings(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const result: Record<string, string> = {};
  for (const [key, text] of Object.entries(value)) if (typeof text === "string") result[key] = text;
  return result;
}
