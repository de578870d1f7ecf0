/** The contract of the saved players list (decision 170); saving goes over the socket (UPDATE_PLAYERS). */
import { answer, defineRoute } from "../../lib/contract.ts";
import { savedPlayersResponseSchema } from "./players-responses.schemas.ts";

export const playersRoutes = {
  list: defineRoute({
    access: "member",
    method: "get",
    path: "/my/players",
    tags: ["Players"],
    summary: "The member's saved players, in their saved order",
    responses: { 200: answer(savedPlayersResponseSchema, "The saved players") },
  }),
};
