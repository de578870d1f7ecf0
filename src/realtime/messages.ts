/**
 * The WebSocket contract (spec §7): the shapes are in the domain, which the web client shares;
 * the server's check of incoming actions is here.
 */
import { z } from "zod";
import { CLIENT_ACTIONS } from "../domain/socket-messages.ts";

export {
  CLIENT_ACTIONS,
  type ClientAction,
  type ServerMessage,
  type SubmissionResultDetails,
  type ToastKind,
  type ToastPayload,
} from "../domain/socket-messages.ts";

/** The envelope only; each action's payload is validated by the feature that handles it. */
export const clientMessageSchema = z.object({
  action: z.enum(CLIENT_ACTIONS),
  payload: z.unknown().optional(),
  /** Optional correlation id echoed back on the answer to this action. */
  requestId: z.string().max(64).optional(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;
