/**
 * The saved players and the form options. The list is the live data's (web/lib/live-data-store.ts):
 * the signed-in layout loads it with the rest and reloads it when a change names `my.players`, and
 * the Book page reads the same copy. The page keeps no second copy of its own, which would be loaded
 * beside the layout's on every open. A save shows the list the server acknowledged at once; the
 * change the server then names reloads it, once.
 */
import { useCallback, useEffect, useState } from "react";
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SavedPlayer } from "../../../src/domain/players.ts";
import { clientLog } from "../../lib/client-log.ts";
import { useLiveData, useLiveDataStore } from "../../lib/live-data-store.ts";
import { fetchFormOptions } from "./players-api.ts";

export interface SavedPlayersState {
  players: SavedPlayer[];
  options: FormOption[];
  isLoading: boolean;
  /** Shows the list the server has just stored, without asking for it: the server's change notice reloads it. */
  showSaved(players: SavedPlayer[]): void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useSavedPlayers(): SavedPlayersState {
  const players = useLiveData((s) => s.savedPlayers);
  const hasLoaded = useLiveData((s) => s.hasLoaded);
  const [options, setOptions] = useState<FormOption[]>([]);
  const showSaved = useCallback((saved: SavedPlayer[]) => useLiveDataStore.getState().setSavedPlayers(saved), []);

  useEffect(() => {
    fetchFormOptions()
      .then(setOptions)
      .catch((error: unknown) => clientLog.error("Failed to load form options", { error: describe(error) }));
  }, []);

  return { players, options, isLoading: !hasLoaded, showSaved };
}
