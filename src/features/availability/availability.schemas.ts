/**
 * The availability contracts (spec §3, §7): tee times with the last scrape time, the bookable
 * dates, the booking rules bundle and the advisories. The web app imports these types only.
 */
import type { BookingRule, Course, Holiday } from "../../domain/booking-rules.ts";
import type { TeeTimeDay } from "../../domain/date-kinds.ts";
import type { AppSettings } from "../../domain/settings.ts";
import type { AllowedWindows } from "../../domain/windows.ts";

export type { DateEntry, TeeTimeDay } from "../../domain/date-kinds.ts";

export interface TeeTimesResponse {
  teeTimes: TeeTimeDay[];
  /** Epoch ms at which the last run that stored data finished; null before the first one. */
  lastScrapeTime: number | null;
}

export interface RulesResponse {
  bookingRules: { rules: BookingRule[]; holidays: Holiday[] };
  courseSchedule: Course[];
  appSettings: AppSettings;
  allowedWindows: AllowedWindows;
}

export interface Advisory {
  id: number;
  title: string;
  content: string;
  /** ISO date of the event, when the advisory names one. */
  eventDate: string | null;
  is_active: boolean;
  /** Epoch ms. */
  created_at: number;
}

export interface AdvisoriesResponse {
  /** Read from the club's site, in the club's order. */
  scraped: Advisory[];
  /** Active front-page messages written by admins, newest first. */
  internal: Advisory[];
}
