/**
 * The one place the object graph is built, for `main.ts`, the tests and the benchmarks alike:
 * what the caller gives (database, clock, logger, keys, the club's address) plus any part it
 * overrides; every part built here from the final (possibly overridden) parts it depends on: the
 * club adapter, the notifier, every job (`jobsOf` lists them in the order they start) and every
 * socket action. Callers compose the config, then start and stop what is built.
 */
import type { AppDatabase } from "./db/client.ts";
import type { AppDeps } from "./deps.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/logger.ts";
import type { SecretBox } from "./lib/secret-box.ts";
import type { TrustPolicy } from "./lib/trust.ts";
import { createHub } from "./realtime/hub.ts";
import { createNotifier } from "./realtime/notifier.ts";
import { createJobRegistry } from "./jobs/registry.ts";
import { createReleaseEngine, type ReleaseEngineOptions } from "./jobs/release-engine.ts";
import { createBookingsSync, type BookingsSyncOptions } from "./jobs/bookings-sync.ts";
import { createSlotWatch, type SlotWatchOptions } from "./jobs/slot-watch.ts";
import { createEditAttempts } from "./attempt/edit.ts";
import { createReadinessCheck, type ReadinessCheckOptions } from "./jobs/readiness-check.ts";
import { createMemberSessions } from "./club/member-sessions.ts";
import type { ClubInfo } from "./club/club-info.ts";
import { createAuditedClubClient } from "./club/audited-client.ts";
import { createMailSender, type MailSenderOptions } from "./jobs/mail-sender.ts";
import { createNotificationRecorder } from "./features/notifications/notifications.store.ts";
import { createSeriesJob } from "./jobs/series.ts";
import { createPushSender, type PushSenderOptions } from "./jobs/push-sender.ts";
import { createVapidKeyStore } from "./services/push-keys.ts";
import { createRetention, type RetentionOptions } from "./jobs/retention.ts";
import { createTelemetry, type TelemetryOptions } from "./jobs/telemetry.ts";
import { createScraper, type ScraperOptions } from "./jobs/scraper.ts";
import type { Job } from "./jobs/engine.ts";
import { registerPlayersActions } from "./features/players/players.service.ts";
import { registerBookingActions } from "./features/bookings/bookings.actions.ts";
import { registerScraperActions } from "./features/availability/scraper.actions.ts";

export interface ContainerConfig {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  secretBox: SecretBox;
  sessionKey: Uint8Array;
  publicOrigin: string | null;
  /** Which proxies and host names are trusted; derived from `publicOrigin` when absent. */
  trust?: TrustPolicy;
  clubInfo: ClubInfo;
  /** How long a club call may take (the adapter's default when absent). */
  clubTimeoutMs?: number;
  releaseEngine?: ReleaseEngineOptions;
  bookingsSync?: BookingsSyncOptions;
  slotWatch?: SlotWatchOptions;
  readiness?: ReadinessCheckOptions;
  retention?: RetentionOptions;
  scraper?: ScraperOptions;
  telemetry?: TelemetryOptions;
  metricsToken?: string | null;
  /** The SMTP transport and sender of notification emails, and the mail job's pace (none: kept in the outbox). */
  mail?: MailSenderOptions;
  /** The push job's VAPID subject, transport and pace, and the push services devices may subscribe at beyond the known ones. */
  push?: PushSenderOptions & { serviceOrigins?: string[] };
  passwordCost?: AppDeps["passwordCost"];
}

export function createContainer(config: ContainerConfig, overrides: Partial<AppDeps> = {}): AppDeps {
  const { database, secretBox } = config;
  const clock = overrides.clock ?? config.clock;
  const logger = overrides.logger ?? config.logger;
  const hub = overrides.hub ?? createHub({ onError: (error, action) => logger.error("socket action failed", { action, error }) });
  const club =
    overrides.club ??
    createAuditedClubClient({ baseUrl: config.clubInfo.url, clock, db: database.db, logger, timeoutMs: config.clubTimeoutMs, numericDateOrder: config.clubInfo.numericDateOrder });
  const jobs = overrides.jobs ?? createJobRegistry(() => clock.now());
  // Sessions are opened through the graph's club as it is when asked (a test may swap the club).
  const sessions = overrides.sessions ?? createMemberSessions({ db: database.db, club: { forMember: (member) => deps.club.forMember(member) }, secretBox });
  const mailSender = overrides.mailSender ?? createMailSender({ database, clock, logger, jobs }, config.mail);
  const pushKeys = overrides.pushKeys ?? createVapidKeyStore({ database, secretBox, clock, logger });
  const pushSender = overrides.pushSender ?? createPushSender({ database, clock, logger, jobs, keys: pushKeys }, config.push);
  // Each notification is stored (list and outboxes) after its raiser has moved on; the mail and push jobs send.
  const notifier =
    overrides.notifier ??
    createNotifier(hub, {
      record: createNotificationRecorder({ database, clock, mail: mailSender, push: pushSender }),
      onError: (error, notification) => logger.error("a notification could not be stored", { kind: notification.kind, userId: notification.userId, error }),
    });
  const jobDeps = { database, clock, logger, jobs, club, sessions, notifier };
  const edits = overrides.edits ?? createEditAttempts({ database, clock, logger, notifier });
  const deps: AppDeps = {
    database,
    secretBox,
    sessionKey: config.sessionKey,
    publicOrigin: config.publicOrigin,
    trust: config.trust,
    clubInfo: config.clubInfo,
    passwordCost: config.passwordCost,
    metricsToken: config.metricsToken ?? null,
    pushServiceOrigins: config.push?.serviceOrigins ?? [],
    ...overrides,
    clock,
    logger,
    hub,
    club,
    jobs,
    sessions,
    notifier,
    mailSender,
    scraper: overrides.scraper ?? createScraper(jobDeps, config.scraper),
    pushSender,
    pushKeys,
    releaseEngine: overrides.releaseEngine ?? createReleaseEngine(jobDeps, config.releaseEngine),
    bookingsSync: overrides.bookingsSync ?? createBookingsSync(jobDeps, config.bookingsSync),
    edits,
    // Each pass settles edits' posts left unanswered too, before the member posts again.
    slotWatch: overrides.slotWatch ?? createSlotWatch({ ...jobDeps, openPosts: [edits.openPosts] }, config.slotWatch),
    readiness: overrides.readiness ?? createReadinessCheck({ ...jobDeps, wakeEngine: () => deps.releaseEngine.wake() }, config.readiness),
    series: overrides.series ?? createSeriesJob({ ...jobDeps, wakeEngine: () => deps.releaseEngine.wake() }),
    retention: overrides.retention ?? createRetention(jobDeps, config.retention),
    // The club adapter counts every request (decision 145).
    telemetry: overrides.telemetry ?? createTelemetry({ ...jobDeps, clubRequestsTotal: () => club.politeness?.traffic.total() ?? 0 }, config.telemetry),
  };
  // The socket's client actions, each answered by the feature that owns it.
  registerPlayersActions(deps);
  registerBookingActions(deps);
  registerScraperActions(deps.hub, deps.scraper);
  return deps;
}

/**
 * Every job, in the order they start (the engine stops them in reverse): each is { start(), stop() },
 * and stop() lets work in flight finish.
 */
export function jobsOf(deps: AppDeps): Job[] {
  return [deps.scraper, deps.releaseEngine, deps.bookingsSync, deps.slotWatch, deps.readiness, deps.series, deps.mailSender, deps.pushSender, deps.retention, deps.telemetry];
}
