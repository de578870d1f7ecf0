/**
 * What GET /v1/my/players answers, checked by the web app before it trusts it. Apart from
 * players.schemas.ts because the web bundle carries zod/mini, not the full zod of the request checks.
 */
import * as z from "../../domain/zod-mini.ts";
import { savedPlayerSchema } from "../../domain/record-schemas.ts";

export const savedPlayersResponseSchema = z.array(savedPlayerSchema);
