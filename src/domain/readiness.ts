/**
 * The readiness check of a pending request, as if it were released now: its course and date are
 * still offered, its times inside the booking windows, and its flight complete and within the
 * rule that applies. Pure (the club sign-in is the job's part); the first problem wins. The
 * detail goes into the reason's context in its default words, as a refusal's own words do.
 */
import { findApplicableLimits, isCourseActiveOn, type BookingRule, type Course, type Holiday } from "./booking-rules.ts";
import { isTimeInWindows } from "./estimated-slots.ts";
import type { FlightPlayer } from "./players.ts";
import { validateFlight } from "./players.ts";
import { reason, renderReason, type RequestReason } from "./request-reasons.ts";
import { watchesText } from "./ui-text/watches.ts";
import type { AllowedWindows } from "./windows.ts";

export interface ReadinessInput {
  courseId: string;
  playDate: string;
  times: readonly string[];
  players: readonly FlightPlayer[];
  selfMemberId: string;
}

export interface ReadinessRules {
  courses: readonly Course[];
  rules: readonly BookingRule[];
  holidays: readonly Holiday[];
  windows: AllowedWindows;
}

/** Problems of the players themselves (not of the rule's numbers). */
const PLAYER_PROBLEMS = new Set(["booking.incomplete", "booking.add_self", "booking.duplicate_player"]);

export function checkReadiness(input: ReadinessInput, rules: ReadinessRules): RequestReason | null {
  const course = rules.courses.find((c) => c.id.toLowerCase() === input.courseId.toLowerCase());
  const notOffered = (message: string) => reason("readiness.reason.not_offered", { date: input.playDate, course: course?.name ?? input.courseId, message });
  if (!course) return notOffered(watchesText["readiness.detail.course_gone"]);
  if (!isCourseActiveOn(course, input.playDate)) return notOffered(watchesText["readiness.detail.course_closed"]);
  const outside = input.times.find((time) => !isTimeInWindows(input.playDate, course.name, time, rules.windows));
  if (outside !== undefined) return notOffered(renderReason(watchesText["readiness.detail.time_outside"], { time: outside }));
  const limits = findApplicableLimits(rules.rules, rules.holidays, input.playDate, input.times[0] ?? "00:00");
  const problem = validateFlight(input.players, limits, { memberId: input.selfMemberId });
  if (!problem) return null;
  return reason(PLAYER_PROBLEMS.has(problem.errorKey) ? "readiness.reason.players" : "readiness.reason.rule", { message: problem.message });
}
