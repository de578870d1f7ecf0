/** Server contracts the web app reads. Type-only imports: nothing from the server ends up in the bundle. */
export type { AuthStatus, SessionUser } from "../../src/features/auth/auth.schemas.ts";
export type { ServerMessage, ToastKind, ToastPayload, ClientAction } from "../../src/realtime/messages.ts";

export type Role = "user" | "admin" | "superadmin";

/** The JSON error body every failing `/v1` call answers with. */
export interface ApiErrorBody {
  message?: string;
  errorKey?: string;
}
