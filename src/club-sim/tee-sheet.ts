/**
 * The club's own tee-sheet generator. The club is a separate system from Teebox, so it
 * keeps its own copy of the window rules here (one place in the sim).
 */
import { minutesOf, timeFromMinutes, weekdayOf } from "../domain/manila-time.ts";
import { CLUB_COURSES, CLUB_LATEST_TEE_TIME, CLUB_WINDOWS, type ClubCourse, type ClubWindow } from "./demo-data.ts";

export function findCourse(courseId: string): ClubCourse | undefined {
  return CLUB_COURSES.find((c) => c.id === courseId);
}

export function isCourseOpenOn(course: ClubCourse, date: string): boolean {
  return course.daysActive.includes(weekdayOf(date));
}

/** Saturday or a Masters course → SATURDAY_MASTERS; Sunday or a Legends course → SUNDAY_LEGENDS; else DEFAULT. */
export function windowsFor(date: string, courseName: string): readonly ClubWindow[] {
  const day = weekdayOf(date);
  if (day === 6 || courseName.includes("Masters")) return CLUB_WINDOWS.SATURDAY_MASTERS;
  if (day === 7 || courseName.includes("Legends")) return CLUB_WINDOWS.SUNDAY_LEGENDS;
  return CLUB_WINDOWS.DEFAULT;
}

const SUNDAY_LEGENDS_FAST_FROM = minutesOf("11:00");

function intervalAt(minutes: number, isSundayLegends: boolean): number {
  return isSundayLegends && minutes >= SUNDAY_LEGENDS_FAST_FROM ? 4 : 8;
}

/**
 * The grids made last, by date and course: every booking post checks its time against the grid,
 * and a release brings hundreds of posts for one date in a second. A few dates are all that is
 * ever asked for at once; the oldest is dropped beyond that, so it never grows.
 */
const recentGrids = new Map<string, readonly string[]>();
const RECENT_GRIDS = 32;

/** Tee times of a course on a date, in order; empty when the course is closed that day. */
export function teeTimesFor(date: string, course: ClubCourse): readonly string[] {
  const key = `${date}|${course.id}`;
  const known = recentGrids.get(key);
  if (known) return known;
  const grid = Object.freeze(makeGrid(date, course));
  recentGrids.set(key, grid);
  if (recentGrids.size > RECENT_GRIDS) recentGrids.delete(recentGrids.keys().next().value!);
  return grid;
}

function makeGrid(date: string, course: ClubCourse): string[] {
  if (!isCourseOpenOn(course, date)) return [];
  const latest = minutesOf(CLUB_LATEST_TEE_TIME);
  const isSundayLegends = weekdayOf(date) === 7 && course.name.includes("Legends");
  const times: string[] = [];
  for (const window of windowsFor(date, course.name)) {
    const end = Math.min(minutesOf(window.end), latest);
    for (let t = minutesOf(window.start); t <= end; t += intervalAt(t, isSundayLegends)) {
      times.push(timeFromMinutes(t));
    }
  }
  return times;
}

/** Opaque-looking but stable slot id, e.g. 'MAS-20260305-0504'. */
export function slotIdOf(date: string, courseId: string, time: string): string {
  return `${courseId.slice(0, 3).toUpperCase()}-${date.replaceAll("-", "")}-${time.replace(":", "")}`;
}

/** The date, course and time a slot id names; null when it is not one of ours. */
export function parseSlotId(slotId: string): { date: string; courseId: string; time: string } | null {
  const match = /^([A-Z]{3})-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})$/.exec(slotId);
  if (!match) return null;
  const [, code, y, mo, d, h, mi] = match;
  const course = CLUB_COURSES.find((c) => c.id.slice(0, 3).toUpperCase() === code);
  if (!course) return null;
  return { date: `${y}-${mo}-${d}`, courseId: course.id, time: `${h}:${mi}` };
}
