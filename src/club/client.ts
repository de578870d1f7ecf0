/**
 * The club adapter: the only code that talks to the club's site. It keeps one cookie
 * session per member, renews it once when the club has ended it, and turns every failure
 * into a ClubError. Acts done for a member go to the audit callback (never the password).
 * Every request draws from the politeness budget and is counted (`politeness`, decision 145).
 */
import { systemClock, type Clock } from "../lib/clock.ts";
import type { BudgetLimits, ClubPace, EpisodeEvent } from "./budget.ts";
import { ClubError, pageNotUnderstood } from "./errors.ts";
import { createClubHttp, type ClubHttp, type ClubResponse, type RequestPurpose, type StampError, type WireRequest, type WireSend } from "./http.ts";
import { createClubPoliteness, type ClubPoliteness } from "./politeness.ts";
import type { ClubRequestOutcome } from "./traffic.ts";
import { parseAdvisoriesPage } from "./pages/advisories-page.ts";
import { parseBookingResultPage, parseNotFoundMessage } from "./pages/booking-result-page.ts";
import { parseBookingsPage } from "./pages/bookings-page.ts";
import { parseHomePage, type HomePage } from "./pages/home-page.ts";
import { isLoginPage, parseLoginPage } from "./pages/login-page.ts";
import { parseTeeSheetPage } from "./pages/tee-sheet-page.ts";
import { clubPlayerSchema, type ClubAdvisory, type ClubAuditEntry, type ClubBooking, type ClubPlayer, type ClubTeeSheet } from "./records.ts";
import { CookieJar } from "./session.ts";
import type { PageReadOptions } from "./text.ts";
import { z } from "zod";

export type { ClubAdvisory, ClubAuditEntry, ClubBooking, ClubPlayer, ClubTeeSheet } from "./records.ts";

export interface ClubClientOptions {
  baseUrl: string;
  /** Per request, including reading the answer. Default 10 000 ms. */
  timeoutMs?: number;
  /** Requests in flight at once, across all members. Default 8. */
  maxConnections?: number;
  clock?: Clock;
  onAudit?: (entry: ClubAuditEntry) => void;
  /** What the page readers are told about the club: its courses with aliases, its numeric date order, where to report skips. */
  reading?: () => PageReadOptions;
  /** The request counts and the budget (default: fresh ones at the settings' defaults). */
  politeness?: ClubPoliteness;
  /** The budget's sizes when no `politeness` is given. */
  budget?: BudgetLimits;
  /** Told when the club asks Teebox to slow down and when that is over (no `politeness` given). */
  onSlowDown?: (event: EpisodeEvent) => void;
}

/** How a call treats a spent budget (budget.ts): `urgent` (the default) and `background` wait, `skip` gives up at once with ClubError('busy'). */
export interface ClubCallOptions {
  pace?: ClubPace;
}

export interface ClubMember {
  userId: number;
  email: string;
  password: string;
}

export interface ClubTimeReading {
  /** The club's clock as its Date header shows it (whole seconds). */
  clubMs: number;
  /** Our clock halfway between sending and receiving. */
  localMs: number;
  sentMs: number;
  receivedMs: number;
  /** How far sentMs and receivedMs may be from the true moments; a whole-ms clock's when absent. */
  stampError?: StampError;
}

export interface BookInput {
  date: string;
  course: string;
  slotId: string;
  time: string;
  players: ClubPlayer[];
}

export interface MemberClubSession {
  readonly userId: number;
  readonly email: string;
  /** Signs in unless a session is already held (a live one is reused). */
  login(options?: ClubCallOptions): Promise<void>;
  /** Drops the held session and signs in afresh. */
  renew(options?: ClubCallOptions): Promise<void>;
  fetchTeeSheet(date: string, courseId: string, options?: ClubCallOptions): Promise<ClubTeeSheet>;
  fetchMyBookings(options?: ClubCallOptions): Promise<ClubBooking[]>;
  /** Never retried here: a booking post without an answer may still have been booked. */
  book(input: BookInput, options?: ClubCallOptions): Promise<{ ref: string }>;
  /**
   * The same booking post, built now (form, cookies, CSRF token) and sent when `post` is called, so
   * that at a release instant only the network call is left. Built at the call (`wire` null) if the
   * member is not signed in yet. Only for a release's first wave: a prepared post does not wait for
   * the politeness budget (it is counted all the same).
   */
  prepareBook(input: BookInput): PreparedBooking;
  editBooking(ref: string, players: ClubPlayer[]): Promise<void>;
  cancelBooking(ref: string): Promise<void>;
  logout(): Promise<void>;
}

export interface PreparedBooking {
  /** The post as it goes on the wire, for a release wave's own thread to send at the instant. */
  wire: WireRequest | null;
  /** Sends the post (here, or through `via`, which sends `wire`) and reads the club's answer. */
  post(via?: WireSend): Promise<{ ref: string }>;
}

export interface ClubClient {
  verifyCredentials(email: string, password: string): Promise<void>;
  fetchAdvisories(options?: ClubCallOptions): Promise<ClubAdvisory[]>;
  clubTime(options?: ClubCallOptions): Promise<ClubTimeReading>;
  forMember(member: ClubMember): MemberClubSession;
  /** The counts of every request sent and the budget they draw from. */
  readonly politeness: ClubPoliteness;
}

const LOGIN_PATH = "/login";
const isRedirect = (status: number) => status >= 300 && status < 400;
const isLoginPath = (location: string | null) => !!location && (location === LOGIN_PATH || location.startsWith(`${LOGIN_PATH}?`));

/** The club ends a session by sending the member back to its login form. */
function hasSessionEnded(response: ClubResponse): boolean {
  if (isRedirect(response.status)) return isLoginPath(response.location);
  if (response.status === 401 || response.status === 403) return true;
  return response.status === 200 && isLoginPage(response.html);
}

function sessionExpired(): ClubError {
  return new ClubError("session_expired", "The club session has ended; please try again.");
}

/** A 200 page to parse, or the typed reason why there is none. */
function expectPage(response: ClubResponse, page: string): string {
  if (response.status === 200) return response.html;
  if (response.status === 404) throw new ClubError("not_found", parseNotFoundMessage(response.html) ?? `The club has no such ${page}.`, { status: 404 });
  throw pageNotUnderstood(page, `a ${page} page (the club answered ${response.status})`);
}

/** Unknown exceptions (a bug, an odd runtime error) still leave as a ClubError. */
/** How a booking, edit or cancel post is counted when its page says no. */
function outcomeOfRefusal(error: unknown): ClubRequestOutcome {
  if (!(error instanceof ClubError)) return "unreadable";
  if (error.kind === "not_yet_open") return "not_yet_open";
  return error.kind === "page_not_understood" ? "unreadable" : "refused";
}

function toClubError(error: unknown): ClubError {
  if (error instanceof ClubError) return error;
  return new ClubError("unavailable", "Unexpected failure while talking to the club site.", { cause: error });
}

async function guarded<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    throw toClubError(error);
  }
}

function playersToForm(players: ClubPlayer[]): Record<string, string> {
  const parsed = z.array(clubPlayerSchema).safeParse(players);
  if (!parsed.success) throw new ClubError("rule_refused", `The players are incomplete: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
  const form: Record<string, string> = {};
  parsed.data.forEach((player, i) => {
    const n = i + 1;
    form[`p${n}_type`] = player.type;
    form[`p${n}_first`] = player.firstName ?? "";
    form[`p${n}_last`] = player.lastName;
    form[`p${n}_id`] = player.memberId ?? "";
    form[`p${n}_cart`] = player.cart;
    form[`p${n}_fee`] = player.fee;
  });
  return form;
}

/** GET the login form, post the credentials, open the home page; returns what the home page says. */
async function signIn(http: ClubHttp, jar: CookieJar, email: string, password: string, purpose: RequestPurpose): Promise<HomePage> {
  jar.clear();
  const form = parseLoginPage(expectPage(await http.send(LOGIN_PATH, { jar, purpose }), "login"));
  const answer = await http.send(form.action || LOGIN_PATH, { method: "POST", jar, purpose, form: { ...form.hidden, [form.userField]: email, [form.passwordField]: password } });
  if (isRedirect(answer.status) && answer.location && !isLoginPath(answer.location)) {
    const home = await http.send(answer.location, { jar, purpose });
    if (hasSessionEnded(home)) throw sessionExpired();
    return parseHomePage(expectPage(home, "member home"));
  }
  const again = parseLoginPage(answer.html);
  if (again.error && /expired/i.test(again.error)) throw new ClubError("session_expired", `The club refused the sign-in: ${again.error}`);
  throw new ClubError("bad_credentials", `The club did not accept the email and password${again.error ? `: ${again.error}` : "."}`);
}

export function createClubClient(options: ClubClientOptions): ClubClient {
  const clock = options.clock ?? systemClock;
  const politeness = options.politeness ?? createClubPoliteness({ clock, limits: options.budget, onEpisode: options.onSlowDown });
  const http = createClubHttp({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs ?? 10_000, maxConnections: options.maxConnections ?? 8, clock, politeness });
  const sessions = new Map<number, { email: string; password: string; session: MemberClubSession }>();
  const reading = () => options.reading?.() ?? {};

  /** Runs an act for a member and reports it; durations use the monotonic timer, not the clock. */
  async function audited<T>(entry: Omit<ClubAuditEntry, "outcome" | "durationMs">, task: () => Promise<T>, detailOf?: (result: T) => string): Promise<T> {
    const started = performance.now();
    const report = (outcome: ClubAuditEntry["outcome"], detail?: string) => {
      try {
        options.onAudit?.({ ...entry, outcome, durationMs: Math.round(performance.now() - started), ...(detail ? { detail } : {}) });
      } catch {
        // An audit sink failure must not turn a booking into an error.
      }
    };
    try {
      const result = await task();
      report("ok", [entry.detail, detailOf?.(result)].filter(Boolean).join(" ") || undefined);
      return result;
    } catch (error) {
      const clubError = toClubError(error);
      report(clubError.kind, entry.detail);
      throw clubError;
    }
  }

  function createMemberSession(member: ClubMember): MemberClubSession {
    const jar = new CookieJar();
    let csrf: string | null = null;
    let csrfField = "_csrf";
    let signingIn: Promise<void> | null = null;
    const who = { userId: member.userId, email: member.email };
    const purpose = (kind: RequestPurpose["kind"], pace: ClubPace = "urgent"): RequestPurpose => ({ kind, memberId: member.userId, pace });

    function login(pace: ClubPace = "urgent"): Promise<void> {
      if (csrf) return Promise.resolve();
      // Concurrent callers share one sign-in instead of racing several.
      signingIn ??= audited({ ...who, action: "login" }, () => signIn(http, jar, member.email, member.password, purpose("sign_in", pace)))
        .then((home) => {
          csrf = home.csrf;
          csrfField = home.csrfField;
        })
        .finally(() => {
          signingIn = null;
        });
      return signingIn;
    }

    async function send(path: string, method: "GET" | "POST", why: RequestPurpose, form?: Record<string, string>, isBooking = false): Promise<ClubResponse> {
      await login(why.pace);
      const body = form ? { ...form, [csrfField]: csrf ?? "" } : undefined;
      return http.send(path, { method, form: body, jar, purpose: why, isAmbiguousIfUnanswered: isBooking, outcomeFromPage: method === "POST" });
    }

    /** One request with one transparent renewal when the club has ended the session. */
    async function request(path: string, method: "GET" | "POST", why: RequestPurpose, form?: Record<string, string>): Promise<ClubResponse> {
      const first = await send(path, method, why, form);
      if (!hasSessionEnded(first)) return first;
      first.settle("refused");
      csrf = null;
      const second = await send(path, method, why, form);
      if (!hasSessionEnded(second)) return second;
      second.settle("refused");
      csrf = null;
      throw sessionExpired();
    }

    async function postResult(path: string, why: RequestPurpose, form: Record<string, string> | undefined, isBooking: boolean): Promise<string> {
      const response = isBooking ? await send(path, "POST", why, form, true) : await request(path, "POST", why, form);
      return resultRef(response, isBooking);
    }

    /** The booking reference a result page carries, or the typed reason it has none; the post is counted by what its page said. */
    function resultRef(response: ClubResponse, isBooking: boolean): string {
      try {
        if (isBooking && hasSessionEnded(response)) {
          csrf = null;
          throw sessionExpired();
        }
        const result = parseBookingResultPage(expectPage(response, "booking result"));
        if (result.outcome === "refused") throw new ClubError(result.kind, result.message);
        response.settle("ok");
        return result.ref;
      } catch (error) {
        response.settle(outcomeOfRefusal(error));
        throw error;
      }
    }

    const bookingForm = (input: BookInput) => ({ slotId: input.slotId, date: input.date, course: input.course, time: input.time, ...playersToForm(input.players) });
    const bookingAudit = (input: BookInput) => ({ ...who, action: "book" as const, detail: `${input.course} ${input.date} ${input.time} slot ${input.slotId}` });

    function book(input: BookInput, options?: ClubCallOptions): Promise<{ ref: string }> {
      return audited(
        bookingAudit(input),
        async () => ({ ref: await postResult("/members/book", purpose("book", options?.pace), bookingForm(input), true) }),
        (result) => `ref ${result.ref}`,
      );
    }

    return {
      userId: member.userId,
      email: member.email,
      login: (options) => guarded(() => login(options?.pace)),
      renew(options) {
        csrf = null;
        return guarded(() => login(options?.pace));
      },
      fetchTeeSheet: (date, courseId, options) =>
        guarded(async () => {
          const query = new URLSearchParams({ date, course: courseId });
          const sheet = parseTeeSheetPage(expectPage(await request(`/members/tee-sheet?${query}`, "GET", purpose("sheet", options?.pace)), "tee sheet"), reading());
          if (sheet.date !== date || sheet.course !== courseId) throw pageNotUnderstood("tee sheet", `the sheet of ${courseId} on ${date}`);
          return sheet;
        }),
      fetchMyBookings: (options) =>
        guarded(async () => parseBookingsPage(expectPage(await request("/members/bookings", "GET", purpose("my_bookings", options?.pace)), "my bookings"), reading())),
      book,
      prepareBook(input) {
        if (!csrf) return { wire: null, post: () => book(input, { pace: "release" }) };
        const prepared = http.prepare("/members/book", {
          method: "POST",
          form: { ...bookingForm(input), [csrfField]: csrf },
          jar,
          purpose: purpose("book"),
          isAmbiguousIfUnanswered: true,
          outcomeFromPage: true,
        });
        return {
          wire: prepared.wire,
          post: (via) =>
            audited(
              bookingAudit(input),
              async () => ({ ref: resultRef(await prepared.send(via), true) }),
              (result) => `ref ${result.ref}`,
            ),
        };
      },
      editBooking: (ref, players) =>
        audited({ ...who, action: "edit", detail: `ref ${ref}` }, async () => {
          await postResult(`/members/bookings/${encodeURIComponent(ref)}/edit`, purpose("edit"), playersToForm(players), false);
        }),
      cancelBooking: (ref) =>
        audited({ ...who, action: "cancel", detail: `ref ${ref}` }, async () => {
          await postResult(`/members/bookings/${encodeURIComponent(ref)}/cancel`, purpose("cancel"), {}, false);
        }),
      logout: () =>
        guarded(async () => {
          if (!csrf) return;
          csrf = null;
          await http.send("/logout", { jar, purpose: purpose("sign_out") });
          jar.clear();
        }),
    };
  }

  return {
    politeness,
    verifyCredentials: (email, password) =>
      audited({ userId: null, email, action: "verify" }, async () => {
        const jar = new CookieJar();
        await signIn(http, jar, email, password, { kind: "sign_in", memberId: null });
        await http.send("/logout", { jar, purpose: { kind: "sign_out", memberId: null } }).catch(() => undefined);
      }),
    fetchAdvisories: (options) =>
      guarded(async () =>
        parseAdvisoriesPage(expectPage(await http.send("/advisories", { purpose: { kind: "advisories", memberId: null, pace: options?.pace } }), "advisories"), reading()),
      ),
    clubTime: (options) =>
      guarded(async () => {
        const response = await http.send("/", { purpose: { kind: "clock_probe", memberId: null, pace: options?.pace } });
        if (response.clubDateMs === null) throw pageNotUnderstood("any", "Date header");
        return {
          clubMs: response.clubDateMs,
          localMs: (response.sentMs + response.receivedMs) / 2,
          sentMs: response.sentMs,
          receivedMs: response.receivedMs,
          stampError: response.stampError,
        };
      }),
    forMember(member) {
      const cached = sessions.get(member.userId);
      if (cached && cached.email === member.email && cached.password === member.password) return cached.session;
      const session = createMemberSession(member);
      sessions.set(member.userId, { email: member.email, password: member.password, session });
      return session;
    },
  };
}
