/**
 * The member's saved players: read, and replaced as a whole list
 * after the domain rules and the admin's form options accept it.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { preparedQuery } from "../../db/prepared.ts";
import { savedPlayers } from "../../db/schema.ts";
import { feeCategoryFor, optionValues, type FormOption } from "../../domain/form-options.ts";
import { normaliseSavedPlayer, validateSavedPlayers, type SavedPlayer } from "../../domain/players.ts";
import type { DomainProblem } from "../../domain/problem.ts";
import { ActionError, parseActionPayload } from "../../realtime/hub.ts";
import { listFormOptions } from "../../services/options-and-texts.service.ts";
import { updatePlayersPayloadSchema } from "./players.schemas.ts";

/** Read on every reload of the app: prepared once (decision 205). */
const savedPlayersOf = preparedQuery((db) =>
  db
    .select()
    .from(savedPlayers)
    .where(eq(savedPlayers.userId, sql.placeholder("userId")))
    .orderBy(asc(savedPlayers.position), asc(savedPlayers.id))
    .prepare(),
);

export async function listSavedPlayers(db: Db, userId: number): Promise<SavedPlayer[]> {
  const rows = await savedPlayersOf(db).all({ userId });
  return rows.map((r) => ({
    firstName: r.firstName,
    lastName: r.lastName,
    type: r.type,
    memberId: r.memberId,
    cartPreference: r.cartPreference,
    feePreference: r.feePreference,
  }));
}

/** Cart and fee must be among the admin's choices; the fee choices depend on the player's type. */
function checkPreferences(list: readonly SavedPlayer[], options: readonly FormOption[]): DomainProblem | null {
  const carts = optionValues(options, "cartPreference");
  for (const player of list) {
    if (!carts.includes(player.cartPreference)) {
      return { message: `Unknown cart preference: ${player.cartPreference || "(none)"}.`, errorKey: "players.invalid_cart", context: { cart: player.cartPreference } };
    }
    if (!optionValues(options, feeCategoryFor(player.type)).includes(player.feePreference)) {
      return { message: `Unknown fee preference: ${player.feePreference || "(none)"}.`, errorKey: "players.invalid_fee", context: { fee: player.feePreference } };
    }
  }
  return null;
}

/** Normalises and checks a whole list; the first problem, or the list ready to store. */
export async function checkSavedPlayers(db: Db, list: readonly SavedPlayer[]): Promise<{ ok: true; players: SavedPlayer[] } | { ok: false; problem: DomainProblem }> {
  const options = await listFormOptions(db);
  const players = list.map(normaliseSavedPlayer);
  const problem = validateSavedPlayers(players, optionValues(options, "playerType")) ?? checkPreferences(players, options);
  return problem ? { ok: false, problem } : { ok: true, players };
}

export async function replaceSavedPlayers(deps: AppDeps, userId: number, players: readonly SavedPlayer[]): Promise<void> {
  await deps.database.transaction(async (tx) => {
    await tx.delete(savedPlayers).where(eq(savedPlayers.userId, userId));
    if (players.length === 0) return;
    await tx.insert(savedPlayers).values(players.map((p, position) => ({ userId, position, ...p })));
  });
}

/**
 * UPDATE_PLAYERS: the payload is the whole list. Answered with an ack (or an error naming the first
 * problem); every open tab of the member is told to reload.
 */
export function registerPlayersActions(deps: AppDeps): void {
  deps.hub.handle("UPDATE_PLAYERS", async (ctx, payload) => {
    const list = parseActionPayload(updatePlayersPayloadSchema, payload);
    const checked = await checkSavedPlayers(deps.database.db, list);
    if (!checked.ok) throw new ActionError(checked.problem.message, checked.problem.errorKey);
    await replaceSavedPlayers(deps, ctx.user.id, checked.players);
    deps.logger.info("saved players updated", { userId: ctx.user.id, count: checked.players.length });
    ctx.reply({ type: "ack", action: "UPDATE_PLAYERS", requestId: ctx.requestId });
    deps.notifier.publish({ type: "players_saved", userId: ctx.user.id });
  });
}
