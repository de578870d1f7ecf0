/**
 * The demo club's fixed facts: courses, tee-sheet windows, member accounts and the
 * members directory. Teebox's seed and the README read the same constants, so the
 * demo members can sign in to both sides with matching details.
 */

export interface ClubCourse {
  id: string;
  name: string;
  /** 1 = Monday … 7 = Sunday */
  daysActive: number[];
}

export const CLUB_COURSES: readonly ClubCourse[] = [
  { id: "masters", name: "Masters", daysActive: [1, 2, 3, 4, 5, 6] },
  { id: "legends", name: "Legends", daysActive: [2, 3, 4, 5, 6, 7] },
];

export interface ClubWindow {
  start: string;
  end: string;
}

/** The club's tee-sheet windows, keyed like Teebox's booking-window rule keys. */
export const CLUB_WINDOWS: Readonly<Record<"DEFAULT" | "SATURDAY_MASTERS" | "SUNDAY_LEGENDS", readonly ClubWindow[]>> = {
  DEFAULT: [{ start: "05:04", end: "16:48" }],
  SATURDAY_MASTERS: [
    { start: "05:04", end: "07:52" },
    { start: "11:00", end: "16:48" },
  ],
  SUNDAY_LEGENDS: [
    { start: "05:04", end: "10:56" },
    { start: "11:00", end: "16:48" },
  ],
};

export const CLUB_LATEST_TEE_TIME = "16:48";
export const CLUB_RELEASE_DAYS_BEFORE = 7;
export const CLUB_RELEASE_TIME = "07:00";
export const CLUB_IDLE_MINUTES = 20;

export const PLAYER_TYPES = ["Member", "Spouse", "Dependent", "Guest", "Senior Care"] as const;
export const MEMBER_PLAYER_TYPES: readonly string[] = ["Member", "Spouse", "Dependent"];
export const GUEST_PLAYER_TYPES: readonly string[] = ["Guest", "Senior Care"];
export const CART_CHOICES = ["Rental Cart - Solo", "Rental Cart - Shared", "Own Cart", "Walking"] as const;
export const GUEST_FEE_CHOICES = ["Charge my guest", "Charge to my account"] as const;
export const MEMBER_FEE_CHOICES = ["Charge to their account", "Charge to my account"] as const;
export const MAX_PLAYERS = 4;
export const MAX_GUESTS = 3;

export interface ClubAccount {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  membershipNumber: string;
}

/** Demo accounts: club email / club password / name / membership number (listed in the README). */
export const DEMO_CLUB_ACCOUNTS: readonly ClubAccount[] = [
  { email: "admin@southwoods.demo", password: "admin-club", firstName: "Club", lastName: "Admin", membershipNumber: "SW-0001" },
  { email: "maria@southwoods.demo", password: "maria-club", firstName: "Maria", lastName: "Santos", membershipNumber: "SW-1001" },
  { email: "jose@southwoods.demo", password: "jose-club", firstName: "Jose", lastName: "Reyes", membershipNumber: "SW-1002" },
  { email: "ana@southwoods.demo", password: "ana-club", firstName: "Ana", lastName: "Cruz", membershipNumber: "SW-1003" },
];

export interface DirectoryEntry {
  firstName: string;
  lastName: string;
  membershipNumber: string;
  type: "Member" | "Spouse" | "Dependent";
}

/** People a member can add to a flight by last name and membership number. */
export const CLUB_DIRECTORY: readonly DirectoryEntry[] = [
  { firstName: "Club", lastName: "Admin", membershipNumber: "SW-0001", type: "Member" },
  { firstName: "Maria", lastName: "Santos", membershipNumber: "SW-1001", type: "Member" },
  { firstName: "Paolo", lastName: "Santos", membershipNumber: "SW-1001-S", type: "Spouse" },
  { firstName: "Bea", lastName: "Santos", membershipNumber: "SW-1001-D1", type: "Dependent" },
  { firstName: "Jose", lastName: "Reyes", membershipNumber: "SW-1002", type: "Member" },
  { firstName: "Carmen", lastName: "Reyes", membershipNumber: "SW-1002-S", type: "Spouse" },
  { firstName: "Ana", lastName: "Cruz", membershipNumber: "SW-1003", type: "Member" },
  { firstName: "Luis", lastName: "Garcia", membershipNumber: "SW-1004", type: "Member" },
  { firstName: "Grace", lastName: "Lim", membershipNumber: "SW-1005", type: "Member" },
  { firstName: "Henry", lastName: "Tan", membershipNumber: "SW-1006", type: "Member" },
  { firstName: "Rosa", lastName: "Dela Cruz", membershipNumber: "SW-1007", type: "Member" },
  { firstName: "Miguel", lastName: "Dela Cruz", membershipNumber: "SW-1007-D1", type: "Dependent" },
];

/** Extra members for benchmarks: bench001@southwoods.demo / bench001-club / SW-9001 … */
export function generateAccounts(count: number): ClubAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(3, "0");
    return {
      email: `bench${n}@southwoods.demo`,
      password: `bench${n}-club`,
      firstName: "Bench",
      lastName: `Golfer${n}`,
      membershipNumber: `SW-${9000 + i + 1}`,
    };
  });
}

export interface ClubAdvisorySeed {
  title: string;
  eventDate: string | null;
  content: string;
}

export const DEMO_ADVISORIES: readonly ClubAdvisorySeed[] = [
  {
    title: "Course Maintenance",
    eventDate: null,
    content: "Greens on Masters holes 1–9 are being aerated this month. • Expect slower greens. • Preferred lies are in effect.",
  },
  {
    title: "Club Championship",
    eventDate: "2026-12-12",
    content: "The Masters course is closed to regular play from 08:00 to 11:00 on Saturdays during the championship. • Sign up at the pro shop. • Handicap certificates required.",
  },
  {
    title: "Dress Code Reminder",
    eventDate: null,
    content: "Collared shirts and soft spikes are required on both courses.",
  },
];
