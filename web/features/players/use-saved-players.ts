/** Loads the saved players and form options, and reloads the list when the server says data changed. */
import { useCallback, useEffect, useState } from "react";
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SavedPlayer } from "../../../src/domain/players.ts";
import { clientLog } from "../../lib/client-log.ts";
import { onDataRefresh } from "../../lib/socket.ts";
import { fetchFormOptions, fetchSavedPlayers } from "./players-api.ts";

export interface SavedPlayersState {
  players: SavedPlayer[];
  options: FormOption[];
  isLoading: boolean;
  reload(): Promise<void>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useSavedPlayers(): SavedPlayersState {
  const [players, setPlayers] = useState<SavedPlayer[]>([]);
  const [options, setOptions] = useState<FormOption[]>([]);
  const [isLoading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    try {
      setPlayers(await fetchSavedPlayers());
    } catch (error) {
      // Data-fetch failures are only logged.
      clientLog.error("Failed to load saved players", { error: describe(error) });
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
    fetchFormOptions()
      .then(setOptions)
      .catch((error: unknown) => clientLog.error("Failed to load form options", { error: describe(error) }));
    return onDataRefresh(() => void reload());
  }, [reload]);

  return { players, options, isLoading, reload };
}
