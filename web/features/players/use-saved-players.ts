/** Loads the saved players (the resource cache's `my.players`) and the form options. */
import { useEffect, useState } from "react";
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SavedPlayer } from "../../../src/domain/players.ts";
import { clientLog } from "../../lib/client-log.ts";
import { useResource } from "../../lib/resources.ts";
import { fetchFormOptions, fetchSavedPlayers } from "./players-api.ts";

export interface SavedPlayersState {
  players: SavedPlayer[];
  options: FormOption[];
  isLoading: boolean;
  reload(): Promise<void>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function loadSavedPlayers(): Promise<SavedPlayer[]> {
  try {
    return await fetchSavedPlayers();
  } catch (error) {
    // Data-fetch failures are only logged.
    clientLog.error("Failed to load saved players", { error: describe(error) });
    throw error;
  }
}

export function useSavedPlayers(): SavedPlayersState {
  const saved = useResource("my.players", loadSavedPlayers);
  const [options, setOptions] = useState<FormOption[]>([]);

  useEffect(() => {
    fetchFormOptions()
      .then(setOptions)
      .catch((error: unknown) => clientLog.error("Failed to load form options", { error: describe(error) }));
  }, []);

  return { players: saved.data ?? [], options, isLoading: saved.data === undefined && saved.error === null, reload: saved.reload };
}
