/** Server contracts the web app reads: only the domain and the schema modules, type-only here. */
export type { AuthStatus, SessionUser } from "../../src/features/auth/auth-responses.schemas.ts";
import type { SessionUser } from "../../src/features/auth/auth-responses.schemas.ts";
export type { ServerMessage, ToastKind, ToastPayload, ClientAction } from "../../src/domain/socket-messages.ts";

export type Role = SessionUser["role"];

/** The JSON error body every failing `/v1` call answers with. */
export interface ApiErrorBody {
  message?: string;
  errorKey?: string;
}
