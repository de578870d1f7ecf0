/** The contracts of the public reference data (decision 170): what the login page and the forms read first. */
import { answer, defineRoute } from "../../lib/contract.ts";
import { formOptionsResponseSchema, uiTextResponseSchema } from "./system.schemas.ts";

const tags = ["Reference data"];

export const systemRoutes = {
  formOptions: defineRoute({
    access: "public",
    method: "get",
    path: "/form-options",
    tags,
    summary: "The choices of the booking and profile forms (cart, fees, player types), in their order",
    responses: { 200: answer(formOptionsResponseSchema, "Every option with its category") },
  }),
  uiText: defineRoute({
    access: "public",
    method: "get",
    path: "/ui-text",
    tags,
    summary: "The UI texts an admin has reworded (keys left out keep their default)",
    responses: { 200: answer(uiTextResponseSchema, "Dotted key to text") },
  }),
};
