/**
 * What the adapter's door (http.ts) keeps about Teebox's manners at the club: the counts of every
 * request (traffic.ts) and the budget they draw from (budget.ts). One per club client; the System
 * Monitor and /metrics read it through `ClubClient.politeness`.
 */
import { DEFAULT_STORED_SETTINGS } from "../domain/settings.ts";
import type { Clock } from "../lib/clock.ts";
import { budgetLimitsOf, createClubBudget, type BudgetLimits, type ClubBudget, type EpisodeEvent } from "./budget.ts";
import { createClubTraffic, type ClubTraffic } from "./traffic.ts";

export interface ClubPoliteness {
  traffic: ClubTraffic;
  budget: ClubBudget;
}

/** The budget at the app settings' defaults (until the settings are read: `budget.configure`). */
export const DEFAULT_BUDGET_LIMITS: BudgetLimits = budgetLimitsOf(DEFAULT_STORED_SETTINGS);

/** No budget at all: for the benchmark's bots, which stand for other people's software, not Teebox. */
export const UNMETERED_LIMITS: BudgetLimits = { clubPerMinute: 1e9, clubBurst: 1e9, memberPerMinute: 1e9, memberBurst: 1e9 };

export function createClubPoliteness(options: { clock: Clock; limits?: BudgetLimits; onEpisode?: (event: EpisodeEvent) => void }): ClubPoliteness {
  return {
    traffic: createClubTraffic(options.clock),
    budget: createClubBudget({ clock: options.clock, limits: options.limits ?? DEFAULT_BUDGET_LIMITS, onEpisode: options.onEpisode }),
  };
}
