/**
 * App settings and UI text as admins edit them.
 * A new release time or days-before moves the release instant of every pending (or held)
 * request; the members concerned are told (a toast and `status: updated`).
 */
import type { AppDeps } from "../../deps.ts";
import { budgetLimitsOf } from "../../club/budget.ts";
import { uiText } from "../../db/schema.ts";
import { loadRequestsByStatus, moveReleaseInstant } from "../../lifecycle/request-lifecycle.ts";
import { releaseInstant, type ReleaseSettings } from "../../domain/release-time.ts";
import type { StoredSettings } from "../../domain/settings.ts";
import { readSettings, writeSettings } from "../../services/settings.service.ts";
import { forgetKeptAnswers } from "../../services/kept-answers.ts";
import { readUiText } from "../../services/options-and-texts.service.ts";

export interface AdminSettingsView {
  settings: StoredSettings;
  uiText: Record<string, string>;
}

/** What the settings calls use of the app: a moved release re-arms the engine and tells members. */
export type SettingsDeps = Pick<AppDeps, "database" | "clock" | "logger" | "notifier" | "releaseEngine" | "demoClub" | "club">;

export async function readAdminSettings(deps: Pick<AppDeps, "database">): Promise<AdminSettingsView> {
  const db = deps.database.db;
  return { settings: await readSettings(db), uiText: await readUiText(db) };
}

const releaseChanged = (a: ReleaseSettings, b: ReleaseSettings) => a.release_days_before !== b.release_days_before || a.release_time !== b.release_time;

export interface SettingsSaveResult {
  settings: StoredSettings;
  /** Pending requests whose release instant moved, per member. */
  movedRequests: number;
}

export async function saveSettings(deps: SettingsDeps, next: StoredSettings): Promise<SettingsSaveResult> {
  const previous = await readSettings(deps.database.db);
  await writeSettings(deps.database.db, next);
  // The rules bundle members read carries the settings.
  forgetKeptAnswers(deps.database.db);
  deps.logger.setLevel(next.log_level);
  deps.club.politeness?.budget.configure(budgetLimitsOf(next));
  const isReleaseMoved = releaseChanged(previous, next);
  // The demo club opens dates when Teebox's settings say, so a moved release time shows a release.
  if (isReleaseMoved) deps.demoClub?.followRelease(next);
  const movedRequests = isReleaseMoved ? await rearmPendingRequests(deps, next) : 0;
  deps.notifier.publish({ type: "settings_saved" });
  return { settings: next, movedRequests };
}

/**
 * Moves each pending request's release instant to the new settings, lets the release engine
 * re-arm its timers, and tells each member whose requests moved. A request whose new instant
 * has already passed is left for the engine, which processes overdue requests at once.
 */
export async function rearmPendingRequests(deps: Pick<AppDeps, "database" | "clock" | "notifier" | "releaseEngine">, settings: ReleaseSettings): Promise<number> {
  const db = deps.database.db;
  const waiting = await loadRequestsByStatus(db, "pending");
  waiting.push(...(await loadRequestsByStatus(db, "held")));
  const movedPerUser = new Map<number, number>();
  const now = deps.clock.now();
  for (const request of waiting) {
    const releaseAt = releaseInstant(request.playDate, settings);
    if (releaseAt === request.releaseAt) continue;
    if (!(await moveReleaseInstant(db, request.id, releaseAt, now))) continue;
    movedPerUser.set(request.userId, (movedPerUser.get(request.userId) ?? 0) + 1);
  }
  deps.releaseEngine.wake();
  for (const [userId, count] of movedPerUser) deps.notifier.publish({ type: "requests_moved", userId, count });
  return [...movedPerUser.values()].reduce((sum, n) => sum + n, 0);
}

/** Replaces the whole key-to-text map; keys left out fall back to their defaults in the app. */
export async function replaceUiText(deps: Pick<AppDeps, "database" | "notifier">, texts: Record<string, string>): Promise<void> {
  await deps.database.transaction(async (tx) => {
    await tx.delete(uiText);
    const rows = Object.entries(texts).map(([key, value]) => ({ key, value }));
    // Small batches keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 200) await tx.insert(uiText).values(rows.slice(i, i + 200));
  });
  deps.notifier.publish({ type: "texts_changed" });
}
