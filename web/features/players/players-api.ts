/**
 * The saved players calls: the form options over HTTP, saving over the socket (UPDATE_PLAYERS
 * carries the whole list and is answered with an ack or an error). The list itself is the live
 * data's (use-saved-players.ts).
 */
import type { FormOption } from "../../../src/domain/form-options.ts";
import type { SavedPlayer } from "../../../src/domain/players.ts";
import { formOptionsResponseSchema } from "../../../src/features/system/system.schemas.ts";
import { getJson } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { appSocket, type SocketClient } from "../../lib/socket.ts";

/** How long a save waits for the server's answer before telling the member. */
export const SAVE_TIMEOUT_MS = 10_000;

export function fetchFormOptions(): Promise<FormOption[]> {
  return getJson(apiPaths.formOptions, formOptionsResponseSchema);
}

/** A refused or unanswered save: `errorKey` names the UI text to show, `message` is the server's text. */
export class PlayersSaveError extends Error {
  constructor(
    message: string,
    readonly errorKey: string | undefined,
    readonly context?: Record<string, string | number>,
  ) {
    super(message);
    this.name = "PlayersSaveError";
  }
}

let nextRequest = 1;

/** Sends the whole list and resolves on the server's ack for this request. */
export function saveSavedPlayers(players: readonly SavedPlayer[], options: { client?: SocketClient; timeoutMs?: number } = {}): Promise<void> {
  const client = options.client ?? appSocket;
  const requestId = `players-${nextRequest++}`;
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = client.subscribe((message) => {
      if (!("requestId" in message) || message.requestId !== requestId) return;
      if (message.type === "ack") finish(null);
      else if (message.type === "error") finish(new PlayersSaveError(message.message, message.errorKey));
    });
    function finish(error: PlayersSaveError | null) {
      clearTimeout(timer);
      unsubscribe();
      if (error) reject(error);
      else resolve();
    }
    if (!client.send("UPDATE_PLAYERS", players, requestId)) {
      return finish(new PlayersSaveError("Not connected.", "players.not_connected"));
    }
    timer = setTimeout(() => finish(new PlayersSaveError("No answer.", "players.no_answer")), options.timeoutMs ?? SAVE_TIMEOUT_MS);
  });
}
