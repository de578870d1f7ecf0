/**
 * The pure arithmetic of the release benchmarks (docs/decisions/090-honest-release-benchmark.md):
 * which asked-for slots were free at the instant, the best any engine could have done under the
 * fairness rule, and who ended up with the contested slots. No I/O, so it is unit-tested.
 *
 * A slot is named by a key `course|HH:mm`; members are given in submission order.
 */

export interface MemberWish {
  email: string;
  /** Slot keys in the member's order of preference. */
  wanted: string[];
}

export interface Confirmation {
  key: string;
  /** When the booking post reached the club, on the club's clock. */
  arrivedClubMs: number;
  isRival: boolean;
}

export const slotKey = (course: string, time: string) => `${course}|${time}`;
export const courseOfKey = (key: string) => key.slice(0, key.indexOf("|"));

/**
 * The asked-for slots that were free at the release instant: available on the club's sheet at
 * the instant and not taken by a rival at or before it. The club changes a slot only through a
 * booking (logged) or a cancellation (which makes it available again), so a slot was available at
 * the instant exactly when it is available at the end or some booking post confirmed it.
 */
export function freeAtInstant(asked: Iterable<string>, availableAtEnd: ReadonlySet<string>, confirmations: readonly Confirmation[], releaseAtClub: number): Set<string> {
  const confirmed = new Set(confirmations.map((c) => c.key));
  const takenByRivalsFirst = new Set(confirmations.filter((c) => c.isRival && c.arrivedClubMs <= releaseAtClub).map((c) => c.key));
  const free = new Set<string>();
  for (const key of asked) if ((availableAtEnd.has(key) || confirmed.has(key)) && !takenByRivalsFirst.has(key)) free.add(key);
  return free;
}

/**
 * The fairness rule played out: in submission order, each member takes the first slot on their
 * list that is free and not taken by an earlier member. Returns each member's slot, or null.
 */
export function fairAllocation(members: readonly MemberWish[], free: ReadonlySet<string>): (string | null)[] {
  const taken = new Set<string>();
  return members.map((member) => {
    const pick = member.wanted.find((key) => free.has(key) && !taken.has(key)) ?? null;
    if (pick) taken.add(pick);
    return pick;
  });
}

export interface CourseContest {
  course: string;
  /** Slots some member asked for that were free at the instant. */
  contested: number;
  wonByMembers: number;
  wonByRivals: number;
}

/**
 * Per course: the contested slots (asked for by some member and free at the instant), and how
 * many of them the members and the rivals hold at the end. Slots nobody asked for never count,
 * whatever the rivals did with them.
 */
export function contestByCourse(free: ReadonlySet<string>, memberHeld: Iterable<string>, rivalHeld: Iterable<string>): CourseContest[] {
  const byCourse = new Map<string, CourseContest>();
  const row = (key: string) => {
    const course = courseOfKey(key);
    let entry = byCourse.get(course);
    if (!entry) byCourse.set(course, (entry = { course, contested: 0, wonByMembers: 0, wonByRivals: 0 }));
    return entry;
  };
  for (const key of free) row(key).contested++;
  for (const key of new Set(memberHeld)) if (free.has(key)) row(key).wonByMembers++;
  for (const key of new Set(rivalHeld)) if (free.has(key)) row(key).wonByRivals++;
  return [...byCourse.values()].sort((a, b) => a.course.localeCompare(b.course));
}

/**
 * Members who hold nothing although a slot on their list was free at the instant and no other
 * member holds it at the end (it went to a rival or stayed empty): a loss no fair engine needed.
 */
export function emptyHandedThoughFree(members: readonly MemberWish[], holdings: ReadonlyMap<string, readonly string[]>, free: ReadonlySet<string>): number {
  const heldByMembers = new Set<string>();
  for (const keys of holdings.values()) for (const key of keys) heldByMembers.add(key);
  return members.filter((m) => (holdings.get(m.email)?.length ?? 0) === 0 && m.wanted.some((key) => free.has(key) && !heldByMembers.has(key))).length;
}

/** Members holding their first choice (best-ranked wins are what a member keeps). */
export function firstChoicesHeld(members: readonly MemberWish[], holdings: ReadonlyMap<string, readonly string[]>): number {
  return members.filter((m) => (holdings.get(m.email) ?? []).includes(m.wanted[0])).length;
}

/**
 * Members a rival beat: a rival holds a slot on the member's list ranked above what the member
 * holds at the end (or the member holds nothing). Rivals on asked-for slots nobody needed do not
 * count here, however many there are.
 */
export function beatenByRivals(members: readonly MemberWish[], holdings: ReadonlyMap<string, readonly string[]>, rivalHeld: Iterable<string>): number {
  const rivals = new Set(rivalHeld);
  return members.filter((m) => {
    const held = holdings.get(m.email) ?? [];
    const bestHeld = Math.min(...held.map((key) => m.wanted.indexOf(key)).filter((rank) => rank >= 0), m.wanted.length);
    return m.wanted.slice(0, bestHeld).some((key) => rivals.has(key));
  }).length;
}
