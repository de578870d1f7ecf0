/**
 * Benchmark: how long after a release's outcome its push reaches the push service. The demo club
 * runs in a process of its own (as a real club is elsewhere); Teebox runs here on the real clock
 * with a file database, its release engine and its push job; a push service stand-in listens on
 * loopback and answers after `--service-ms` (a real service's round trip). N members, each with D
 * devices, want four tee times each of the date that opens at the next whole minute (as the
 * release benchmark draws them, so some lose to others); at the release each gets a push, booked
 * or not. For each push it prints the time from the outcome (when the notifier sends the member's
 * "booked" or "failed" toast) to the push's arrival at the service, and how much of it passed before
 * the push was in the outbox (the notification being stored). Asserts nothing.
 *
 *   bun scripts/bench/push.ts [--members 30] [--devices 2] [--service-ms 80]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createContainer } from "../../src/container.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { pushOutbox, users } from "../../src/db/schema.ts";
import { seed } from "../../src/db/seed.ts";
import { DEFAULT_STORED_SETTINGS } from "../../src/domain/settings.ts";
import { CART_CHOICES } from "../../src/club-sim/demo-data.ts";
import { submitBookingRequest } from "../../src/features/bookings/bookings.service.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createSecretBox } from "../../src/lib/secret-box.ts";
import { saveDevice } from "../../src/services/push-subscriptions.ts";
import { toSessionUser } from "../../src/services/sessions.ts";
import { writeSettings } from "../../src/services/settings.service.ts";
import { startPushService } from "../../test/helpers/push-service.ts";
import { createTestDevice } from "../../test/helpers/web-push-decrypt.ts";
import { drawMembers, planRelease, startClubProcess } from "./release-support.ts";
import { percentile } from "./support.ts";

const { values } = parseArgs({
  options: { members: { type: "string", default: "30" }, devices: { type: "string", default: "2" }, "service-ms": { type: "string", default: "80" } },
});
const memberCount = Number(values.members);
const devicesEach = Number(values.devices);
const serviceMs = Number(values["service-ms"]);
/** The engine signs members in this long before the instant (as the release benchmark's Teebox does). */
const PREPARE_LEAD_MS = 30_000;

const plan = planRelease(0, PREPARE_LEAD_MS + 20_000);
const club = await startClubProcess({ seed: 7, clockOffsetMs: 0, releaseTime: plan.releaseTime, releaseDaysBefore: plan.releaseDaysBefore, members: memberCount, rivals: [] });
const service = startPushService({ latencyMs: serviceMs });
const dataDir = mkdtempSync(join(tmpdir(), "teebox-bench-push-"));
const database = openDatabase(`file:${join(dataDir, "teebox.db")}`);
await migrate(database, Date.now());
const secretBox = createSecretBox(Buffer.alloc(32, 9));
const deps = createContainer({
  database,
  clock: systemClock,
  logger: createLogger("warn"),
  secretBox,
  sessionKey: new Uint8Array(32),
  publicOrigin: null,
  clubInfo: { mode: "demo", url: club.url },
  releaseEngine: { prepareLeadMs: PREPARE_LEAD_MS },
  push: { subject: "mailto:bench@southwoods.demo", serviceOrigins: [service.origin] },
});
await seed(database, { now: Date.now(), adminPassword: "bench-admin-password", demo: false, secretBox, hashPassword: async () => "x", announce: () => undefined });
await writeSettings(database.db, {
  ...DEFAULT_STORED_SETTINGS,
  release_time: plan.releaseTime,
  release_days_before: plan.releaseDaysBefore,
  ui_date_range_days: plan.releaseDaysBefore + 7,
});

// The moment each member's outcome is told (the toast goes out with the event, before anything is stored).
const toldAt = new Map<number, number>();
/** The same moment on the wall clock, which the outbox's rows are stamped with. */
const toldAtWall = new Map<number, number>();
deps.hub.onPublish((topic, message) => {
  const userId = Number(topic.replace("user:", ""));
  if (message.type === "toast" && (message.toast.textKey === "bookings.toast.booked" || message.toast.textKey === "bookings.toast.failed") && !toldAt.has(userId)) {
    toldAt.set(userId, performance.now());
    toldAtWall.set(userId, Date.now());
  }
});

const members = drawMembers(memberCount, plan.playDate);
const userOfDevice = new Map<string, number>();
for (const [i, member] of members.entries()) {
  const now = Date.now();
  const [row] = await database.db
    .insert(users)
    .values({
      username: `bench${i + 1}`,
      passwordHash: "x",
      name: `${member.account.firstName} ${member.account.lastName}`,
      memberId: member.account.membershipNumber,
      clubEmail: member.account.email,
      clubPasswordSealed: secretBox.seal(member.account.password),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  for (let d = 0; d < devicesEach; d++) {
    const device = await createTestDevice(service.endpointFor(`m${i}-d${d}`));
    await saveDevice(database, row!.id, { ...device.subscription.keys, endpoint: device.subscription.endpoint, expiresAt: null }, now);
    userOfDevice.set(`m${i}-d${d}`, row!.id);
  }
  await submitBookingRequest(deps, toSessionUser(row!), {
    course: member.course,
    targetDate: plan.playDate,
    selectionOrder: member.times.map((time) => ({ time, slotId: null })),
    memberCartType: CART_CHOICES[0],
    playerDetails: { players: [] },
  });
}
await deps.releaseEngine.start();
deps.pushSender.start();
console.log(
  `push bench: ${memberCount} members × ${devicesEach} devices, release at ${plan.releaseTime} (in ${Math.round((plan.releaseAtClub - Date.now()) / 1000)} s), push service answering in ${serviceMs} ms`,
);

await service.waitFor(memberCount * devicesEach, plan.releaseAtClub - Date.now() + 120_000);
const latencies = service.received.map((push) => push.receivedAt - toldAt.get(userOfDevice.get(push.device)!)!).sort((a, b) => a - b);
const firstTold = Math.min(...toldAt.values());
const lastArrival = Math.max(...service.received.map((p) => p.receivedAt));
const kinds = service.received.length;
console.log(`${toldAt.size} outcomes told, ${kinds} pushes received`);
console.log(
  `outcome → push at the service (ms): p50 ${percentile(latencies, 50).toFixed(1)}, p95 ${percentile(latencies, 95).toFixed(1)}, max ${latencies.at(-1)!.toFixed(1)}; first outcome → last push ${(lastArrival - firstTold).toFixed(1)} ms`,
);
// Where the time goes: from the outcome to its pushes in the outbox (the notification stored), then to the service.
const queued = await database.db.select({ userId: pushOutbox.userId, createdAt: pushOutbox.createdAt }).from(pushOutbox);
const toQueue = queued.map((row) => row.createdAt - toldAtWall.get(row.userId)!).sort((a, b) => a - b);
console.log(
  `outcome → push queued in the outbox (ms, wall clock): p50 ${percentile(toQueue, 50).toFixed(0)}, p95 ${percentile(toQueue, 95).toFixed(0)}, max ${toQueue.at(-1)!.toFixed(0)}`,
);
await deps.pushSender.stop();
await deps.releaseEngine.stop();
await deps.notifier.settled?.();
await database.close();
await club.stop();
service.stop();
rmSync(dataDir, { recursive: true, force: true });
