/**
 * Admin-edited UI text overrides, loaded from GET /v1/ui-text (public) and reloaded when the
 * socket says `uiTextUpdated`. Defaults live in src/domain/ui-text.
 */
import { create } from "zustand";
import { uiTextResponseSchema } from "../../src/features/system/system.schemas.ts";
import { getJson } from "./api.ts";
import { apiPaths } from "./api-paths.ts";
import { clientLog } from "./client-log.ts";

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
      const texts = await getJson(apiPaths.uiText, uiTextResponseSchema);
      set({ overrides: texts, isLoaded: true });
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
