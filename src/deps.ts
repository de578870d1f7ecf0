/**
 * What the Hono app and the socket hub are given by the composition root (src/main.ts) or a test.
 * Capabilities added by later features hang off here, so routes never reach for globals.
 */
import type { AppDatabase } from "./db/client.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/logger.ts";
import type { SecretBox } from "./lib/secret-box.ts";
import type { Hub } from "./realtime/hub.ts";
import type { JobRegistry } from "./jobs/registry.ts";
import type { ClubClient } from "./club/client.ts";
import type { ClubInfo, DemoClubLink } from "./club/club-info.ts";
import type { MemberSessions } from "./club/member-sessions.ts";
import type { Notifier } from "./realtime/notifier.ts";
import type { SessionUser } from "./domain/session-user.ts";
import type { ReleaseEngine } from "./jobs/release-engine.ts";
import type { BookingsSync } from "./jobs/bookings-sync.ts";
import type { MailSender } from "./jobs/mail-sender.ts";
import type { PushSender } from "./jobs/push-sender.ts";
import type { VapidKeyStore } from "./services/push-keys.ts";
import type { TrustPolicy } from "./lib/trust.ts";
import type { SlotWatch } from "./jobs/slot-watch.ts";
import type { Scraper } from "./jobs/scraper.ts";
import type { EditAttempts } from "./attempt/edit.ts";
import type { ReadinessCheck } from "./jobs/readiness-check.ts";
import type { Retention } from "./jobs/retention.ts";
import type { SeriesJob } from "./jobs/series.ts";
import type { Telemetry } from "./jobs/telemetry.ts";

export interface AppDeps {
  database: AppDatabase;
  clock: Clock;
  logger: Logger;
  secretBox: SecretBox;
  /** HMAC key for the session cookie (jose). */
  sessionKey: Uint8Array;
  /** The origin browsers use (behind a proxy), else the request's own origin is trusted. */
  publicOrigin: string | null;
  hub: Hub;
  /** Trusted proxies and allowed host names (TRUSTED_PROXIES, ALLOWED_HOSTS); absent: the defaults for publicOrigin. */
  trust?: TrustPolicy;
  /** Status of the long-running parts (web server, socket hub, scraper, release engine, bookings sync). */
  jobs: JobRegistry;
  /** The club's booking site (the real one, or the demo club) through the adapter. */
  club: ClubClient;
  clubInfo: ClubInfo;
  /** The demo club started with this Teebox (no CLUB_URL): it opens dates as the release settings say. */
  demoClub?: DemoClubLink;
  /** Members' club sessions, opened from their stored club logins. */
  sessions: MemberSessions;
  /** Turns domain events into what browsers are told (the only publisher of socket pushes). */
  notifier: Notifier;
  /** Reads the club's tee sheets and advisories on a schedule, and when a member asks (RUN_SCRAPER). */
  scraper: Scraper;
  /** Fires queued booking requests at the release instant (started by main.ts; a test starts it when it needs it). */
  releaseEngine: ReleaseEngine;
  /** Keeps confirmed bookings in step with the club. */
  bookingsSync: BookingsSync;
  /** Books (or tells of) freed tee times for members' slot watches. */
  slotWatch: SlotWatch;
  /** Books the new slot of an edit of a confirmed booking, and settles edits' posts left unanswered. */
  edits: EditAttempts;
  /** Checks pending requests the day before their release (and on demand). */
  readiness: ReadinessCheck;
  /** Queues the dated requests of members' standing requests as their dates can be queued. */
  series: SeriesJob;
  /** Sends the outbox's notification emails (started by main.ts). */
  mailSender: MailSender;
  /** Sends the push outbox's pushes to members' devices (started by main.ts). */
  pushSender: PushSender;
  /** The server's VAPID key pair, made once and kept in the database. */
  pushKeys: VapidKeyStore;
  /** Origins of push services beyond the well-known ones that devices may subscribe at (PUSH_SERVICE_ORIGINS). */
  pushServiceOrigins?: string[];
  /** Deletes what has outlived its keeping (a daily pass away from releases). */
  retention: Retention;
  /** A day of per-minute samples of the process (System Monitor charts, /metrics) and the heartbeat. */
  telemetry: Telemetry;
  /** Opens GET /metrics beyond this machine (METRICS_TOKEN); null: loopback only. */
  metricsToken?: string | null;
  /** Argon2id cost; tests lower it. */
  passwordCost?: { memoryCost: number; timeCost: number };
}

/**
 * What a request carries through the middleware. The app's parts are not among them: each route
 * group is given the narrow part it uses when the app is built (src/app.ts).
 */
export interface AppVariables {
  requestId: string;
  user: SessionUser | null;
  sessionId: string | null;
}

/** What Bun.serve hands the app with each request (absent under app.request() in tests). */
export interface AppBindings {
  clientIp?: () => string;
}

export type AppEnv = { Variables: AppVariables; Bindings: AppBindings };
