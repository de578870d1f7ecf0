/**
 * Guest and flight-size rules, holidays and
 * course days.
 */
import { isHhMm, shortDayName, weekdayOf } from "./manila-time.ts";

export type BookingRule = {
  id: number;
  priority: number;
  days_of_week: number[];
  applies_on_holidays: boolean;
  start_time: string;
  end_time: string;
  min_players: number | null;
  max_players: number | null;
  max_guests: number | null;
};
export type Holiday = { date: string; name: string | null };
export type Course = { id: string; name: string; days_active: number[] };

/** A course's name from the schedule by its id (any case); the id itself when the schedule lacks it. */
export function courseNameOf(courseId: string, schedule: readonly Pick<Course, "id" | "name">[]): string {
  return schedule.find((c) => c.id.toLowerCase() === courseId.toLowerCase())?.name ?? courseId;
}
export type FlightLimits = {
  minPlayers: number;
  maxPlayers: number;
  maxGuests: number;
  rule: BookingRule | null;
};

/** A flight at the club is at most four golfers, whatever a rule says. */
export const CLUB_MAX_PLAYERS = 4;
/** The booking member is never a guest, so at most three of the four can be guests. */
export const CLUB_MAX_GUESTS = CLUB_MAX_PLAYERS - 1;

export const DEFAULT_LIMITS: FlightLimits = {
  minPlayers: 1,
  maxPlayers: CLUB_MAX_PLAYERS,
  maxGuests: CLUB_MAX_GUESTS,
  rule: null,
};

export const NEW_RULE_DEFAULTS: Omit<BookingRule, "id"> = {
  priority: 10,
  days_of_week: [],
  applies_on_holidays: false,
  start_time: "05:00",
  end_time: "17:00",
  min_players: 1,
  max_players: 4,
  max_guests: 3,
};

export function isHoliday(holidays: readonly Holiday[], date: string): boolean {
  return holidays.some((h) => h.date === date);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Null limits mean "no limit", which at the club is still a flight of four with three guests. */
export function limitsOf(rule: BookingRule): FlightLimits {
  const maxPlayers = clamp(rule.max_players ?? CLUB_MAX_PLAYERS, 1, CLUB_MAX_PLAYERS);
  return {
    minPlayers: clamp(rule.min_players ?? 1, 1, CLUB_MAX_PLAYERS),
    maxPlayers,
    maxGuests: clamp(rule.max_guests ?? CLUB_MAX_GUESTS, 0, CLUB_MAX_GUESTS),
    rule,
  };
}

/**
 * A rule covers a date when the date's weekday is one of its days or — on a holiday — when it
 * applies on holidays: 'Hol' acts as a day of its own (the rules table writes it beside the day
 * names). On a holiday only holiday rules are considered.
 */
export function ruleCoversDate(rule: BookingRule, date: string, isHolidayDate: boolean): boolean {
  if (isHolidayDate) return rule.applies_on_holidays;
  return rule.days_of_week.includes(weekdayOf(date));
}

/** Both ends inclusive: a 05:00–12:00 rule governs a flight whose first time is 12:00. */
export function ruleCoversTime(rule: BookingRule, time: string): boolean {
  return isHhMm(time) && rule.start_time <= time && time <= rule.end_time;
}

/**
 * The limits for a flight on `date` whose first selected time is `firstTime`. Among the rules that
 * cover both, the lowest priority number wins (priority 1 beats priority 10, like a ranking);
 * equal priorities fall back to the lower id, so the choice never depends on list order.
 * No matching rule gives DEFAULT_LIMITS.
 */
export function findApplicableLimits(rules: readonly BookingRule[], holidays: readonly Holiday[], date: string, firstTime: string): FlightLimits {
  const onHoliday = isHoliday(holidays, date);
  const matching = rules.filter((r) => ruleCoversDate(r, date, onHoliday) && ruleCoversTime(r, firstTime)).sort((a, b) => a.priority - b.priority || a.id - b.id);
  return matching.length > 0 ? limitsOf(matching[0]) : DEFAULT_LIMITS;
}

export function isCourseActiveOn(course: Pick<Course, "days_active">, date: string): boolean {
  return course.days_active.includes(weekdayOf(date));
}

/** Days 1..7, each once, in week order (the rule dialog keeps its toggles sorted). */
export function sortRuleDays(days: readonly number[]): number[] {
  return [...new Set(days)].filter((d) => Number.isInteger(d) && d >= 1 && d <= 7).sort((a, b) => a - b);
}

/** 'Mon Tue Hol': short day names, plus ' Hol' when the rule applies on holidays; '-' for none. */
export function formatRuleDays(rule: Pick<BookingRule, "days_of_week" | "applies_on_holidays">): string {
  const names = sortRuleDays(rule.days_of_week).map(shortDayName);
  if (rule.applies_on_holidays) names.push("Hol");
  return names.length > 0 ? names.join(" ") : "-";
}

export function formatLimit(limit: number | null | undefined): string {
  return limit == null ? "-" : String(limit);
}
