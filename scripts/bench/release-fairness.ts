/**
 * The pure arithmetic of the release benchmarks (docs/decisions/090-honest-release-benchmark.md,
 * 190-an-exact-release-oracle.md): which asked-for slots were free at the instant, the first
 * choices the fairness rule gives, the most members any engine could leave with a slot, and who
 * ended up with the contested slots. No I/O, so it is unit-tested.
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
 * The first choices the fairness rule gives, exactly (decision 190). At the instant nobody can see
 * which slots are free (the date's sheet opens then), so each request claims its first preference
 * that no earlier-submitted request has claimed, available or not, and its first post goes for
 * that slot. A member's first choice is theirs under the rule when they claim it (nobody ahead of
 * them claimed it) and it was free at the instant: the post for it is the first to reach the club.
 * Returns, per member, whether their first choice is one of those.
 */
export function firstChoicesByRule(members: readonly MemberWish[], free: ReadonlySet<string>): boolean[] {
  const claimed = new Set<string>();
  return members.map((member) => {
    const claim = member.wanted.find((key) => !claimed.has(key));
    if (claim === undefined) return false;
    claimed.add(claim);
    return claim === member.wanted[0] && free.has(claim);
  });
}

/**
 * The most members any engine could leave holding a slot: a maximum matching of members to the
 * slots on their lists that were free at the instant, one member a slot (decision 190). No engine,
 * fair or not, can do better, since each member keeps one booking and each slot holds one; a fair
 * engine may do less, because the rule gives earlier members their better choices first. Returns
 * each member's slot in one such matching, or null.
 */
export function maximumMatching(members: readonly MemberWish[], free: ReadonlySet<string>): (string | null)[] {
  const holderOf = new Map<string, number>();
  const slotOf: (string | null)[] = members.map(() => null);
  // Kuhn's augmenting paths: a thousand members of four wishes each take a few milliseconds.
  const augment = (member: number, visited: Set<string>): boolean => {
    for (const key of members[member].wanted) {
      if (!free.has(key) || visited.has(key)) continue;
      visited.add(key);
      const holder = holderOf.get(key);
      if (holder === undefined || augment(holder, visited)) {
        holderOf.set(key, member);
        slotOf[member] = key;
        return true;
      }
    }
    return false;
  };
  for (let member = 0; member < members.length; member++) augment(member, new Set());
  return slotOf;
}

/** Members the rule gives their first choice (firstChoicesByRule) who do not hold it at the end. */
export function firstChoicesMissed(members: readonly MemberWish[], byRule: readonly boolean[], holdings: ReadonlyMap<string, readonly string[]>): MemberWish[] {
  return members.filter((m, i) => byRule[i] && !(holdings.get(m.email) ?? []).includes(m.wanted[0]));
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
