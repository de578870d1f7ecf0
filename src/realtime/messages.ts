/**
 * The WebSocket contract: the shapes are in the domain, which the web client shares;
 * the server's check of incoming actions is here.
 */
import { z } from "zod";
import { CLIENT_ACTIONS } from "../domain/socket-messages.ts";

export {
  CLIENT_ACTIONS,
  type ClientAction,
  type ServerMessage,
  type SubmissionResultDetails,
  type SubmissionStatus,
  type ToastKind,
  type ToastPayload,
} from "../domain/socket-messages.ts";

/** The longest correlation id a client may send (echoed back on every answer to its action). */
export const REQUEST_ID_MAX_LENGTH = 64;

/** The envelope only; each action's payload is validated by the feature that handles it. */
export const clientMessageSchema = z.object({
  action: z.enum(CLIENT_ACTIONS),
  payload: z.unknown().optional(),
  /** Optional correlation id echoed back on the answer to this action. */
  requestId: z.string().max(REQUEST_ID_MAX_LENGTH).optional(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;
