/**
 * Admin-edited UI text overrides, loaded from GET /v1/ui-text (public) and reloaded when the
 * socket says `uiTextUpdated`. Defaults live in src/domain/ui-text.
 *
 * The texts that differ from the defaults are also kept in local storage, so a returning member's
 * first screen already shows the club's wording while the app asks for the current one. An answer
 * that changes no shown text leaves the store alone: nothing re-renders for it.
 */
import { create } from "zustand";
import { uiTextResponseSchema } from "../../src/features/system/system.schemas.ts";
import { getJson } from "./api.ts";
import { apiPaths } from "./api-paths.ts";
import { clientLog } from "./client-log.ts";
import { UI_TEXT_STORAGE_KEY } from "./storage-keys.ts";
import { showsSameTexts, textsThatDiffer } from "./text-catalogue.ts";

interface TextState {
  overrides: Record<string, string>;
  /** Bumped when the full default catalogue arrives (web/lib/text.ts), so shown texts re-render. */
  defaultsVersion: number;
  isLoaded: boolean;
  loadTexts(): Promise<void>;
  setOverrides(overrides: Record<string, string>): void;
}

/** The texts kept by the last load (exported for tests). */
export function readKeptTexts(): Record<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(UI_TEXT_STORAGE_KEY) ?? "{}");
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return {};
  }
}

function keepTexts(texts: Record<string, string>): void {
  try {
    const differing = textsThatDiffer(texts);
    if (Object.keys(differing).length === 0) localStorage.removeItem(UI_TEXT_STORAGE_KEY);
    else localStorage.setItem(UI_TEXT_STORAGE_KEY, JSON.stringify(differing));
  } catch {
    // Without storage the defaults show until the texts arrive, as on a first visit.
  }
}

export const useTextStore = create<TextState>()((set, get) => ({
  overrides: readKeptTexts(),
  defaultsVersion: 0,
  isLoaded: false,
  async loadTexts() {
    try {
      const texts = await getJson(apiPaths.uiText, uiTextResponseSchema);
      keepTexts(texts);
      if (showsSameTexts(get().overrides, texts)) {
        if (!get().isLoaded) set({ isLoaded: true });
      } else set({ overrides: texts, isLoaded: true });
    } catch (error) {
      // Defaults keep every screen readable; a fetch failure is only logged.
      clientLog.error("Failed to load UI text", { error: error instanceof Error ? error.message : String(error) });
      set({ isLoaded: true });
    }
  },
  setOverrides(overrides) {
    keepTexts(overrides);
    set({ overrides, isLoaded: true });
  },
}));
