import { z } from "zod";

/** The most saved players a member keeps; far more than anyone books with, small enough for one message. */
export const MAX_SAVED_PLAYERS = 100;

const text = (max: number) => z.string().max(max);

/** A saved player as the web app sends and receives it. */
export const savedPlayerSchema = z.object({
  firstName: text(100),
  lastName: text(100),
  type: text(50),
  memberId: text(50),
  cartPreference: text(100),
  feePreference: text(100),
});

/** UPDATE_PLAYERS carries the whole list, which replaces the stored one. */
export const updatePlayersPayloadSchema = z.array(savedPlayerSchema).max(MAX_SAVED_PLAYERS, "players.too_many");
