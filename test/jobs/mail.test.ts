/**
 * Notification emails through a real SMTP server on loopback (test/helpers/smtp-server.ts): the
 * SMTP client's conversation, the messages a confirmed and a failed request send (recipients,
 * subjects, bodies), once per event, the member's switches, the outbox without SMTP, and a mail
 * server that is down or silent: the release engine fires on the instant while the mail job
 * retries, and the message is marked failed after its bounded attempts.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bookingRequests, mailOutbox, notifications, notificationSettings } from "../../src/db/schema.ts";
import { manilaInstant } from "../../src/domain/manila-time.ts";
import { NO_SMTP_NOTE } from "../../src/domain/notifications.ts";
import { createMailTransport as createSmtpTransport } from "../../src/mail/nodemailer-transport.ts";
import { parseSmtpUrl } from "../../src/mail/smtp-url.ts";
import { MailError } from "../../src/mail/transport.ts";
import { closedPort, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server.ts";
import { ADMIN_PASSWORD } from "../helpers/api.ts";
import { startReleaseFixture, submission, type ReleaseFixture } from "./release-engine.fixture.ts";

/** TEST_NOW is Sunday 2026-11-22 09:00 Manila: 2026-11-27 is open, 2026-11-30 opens at the release below. */
const OPEN_DATE = "2026-11-27";
const PLAY = "2026-11-30";
const RELEASE = manilaInstant("2026-11-23", "07:00");
const FROM = "Teebox <teebox@southwoods.test>";

let smtp: TestSmtpServer | null = null;
let f: ReleaseFixture | null = null;
afterEach(async () => {
  await f?.close();
  smtp?.stop();
  f = null;
  smtp = null;
});

const outboxRows = (fx: ReleaseFixture) => fx.t.deps.database.db.select().from(mailOutbox).orderBy(mailOutbox.id);

/** Lets the notifier store what was raised, then the mail job send what is due. */
async function settle(fx: ReleaseFixture): Promise<void> {
  await fx.engine.idle();
  await fx.t.deps.notifier.settled!();
  await fx.t.deps.mailSender.idle();
}

describe("the mail transport (nodemailer), against a real SMTP server on loopback", () => {
  test("EHLO, MAIL FROM, RCPT TO and DATA: the server gets the envelope, the headers and the body", async () => {
    smtp = startSmtpServer();
    const transport = createSmtpTransport(smtp.url, { clientName: "teebox.test" });
    await transport.send({ from: FROM, to: "maria@southwoods.demo", subject: "Teebox booked Masters — 06:00", text: "Booked: Masters.\n.A line with a dot\nMañana" });
    const [mail] = await smtp.waitFor(1);
    // The envelope as the server saw it (the library may close without QUIT once the message is accepted).
    expect(smtp.commands.slice(0, 4)).toEqual(["EHLO teebox.test", "MAIL FROM:<teebox@southwoods.test>", "RCPT TO:<maria@southwoods.demo>", "DATA"]);
    expect(mail.from).toBe("teebox@southwoods.test");
    expect(mail.to).toEqual(["maria@southwoods.demo"]);
    expect(mail.subject).toBe("Teebox booked Masters — 06:00");
    expect(mail.headers.from).toBe("Teebox <teebox@southwoods.test>");
    expect(mail.headers.to).toBe("maria@southwoods.demo");
    expect(mail.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(mail.body).toBe("Booked: Masters.\n.A line with a dot\nMañana");
    expect(transport.describe()).toBe(`smtp://127.0.0.1:${smtp.port}`);
  });

  test("a user in SMTP_URL logs in with AUTH PLAIN; a wrong password is a refusal that will not change", async () => {
    smtp = startSmtpServer({ login: { user: "teebox", password: "p@ss word" } });
    await createSmtpTransport(`smtp://teebox:${encodeURIComponent("p@ss word")}@127.0.0.1:${smtp.port}`).send({
      from: FROM,
      to: "ana@southwoods.demo",
      subject: "Hi",
      text: "Hello",
    });
    expect((await smtp.waitFor(1))[0].to).toEqual(["ana@southwoods.demo"]);
    const refused = await createSmtpTransport(`smtp://teebox:wrong@127.0.0.1:${smtp.port}`)
      .send({ from: FROM, to: "ana@southwoods.demo", subject: "Hi", text: "Hello" })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(MailError);
    expect(refused).toMatchObject({ isTemporary: false });
    expect(refused.message).toContain("535");
    // The password never shows where the server is described.
    expect(createSmtpTransport(`smtp://teebox:secret@127.0.0.1:${smtp.port}`).describe()).not.toContain("secret");
  });

  test("refusals: an unknown recipient is final, a 4xx is worth another try, a closed port fails at once", async () => {
    smtp = startSmtpServer();
    const transport = createSmtpTransport(smtp.url);
    const unknown = await transport.send({ from: FROM, to: "nobody@southwoods.demo", subject: "x", text: "x" }).catch((e) => e);
    expect(unknown).toMatchObject({ isTemporary: false });
    smtp.setOptions({ refuseNext: { count: 1, code: 451, text: "4.3.0 Try again later" } });
    const busy = await transport.send({ from: FROM, to: "ana@southwoods.demo", subject: "x", text: "x" }).catch((e) => e);
    expect(busy).toMatchObject({ isTemporary: true });
    expect(busy.message).toContain("451");
    const startedAt = performance.now();
    const down = await createSmtpTransport(`smtp://127.0.0.1:${await closedPort()}`)
      .send({ from: FROM, to: "ana@southwoods.demo", subject: "x", text: "x" })
      .catch((e) => e);
    expect(down).toMatchObject({ isTemporary: true });
    expect(performance.now() - startedAt).toBeLessThan(2000);
  });

  test("SMTP_URL forms", () => {
    expect(parseSmtpUrl("smtp://mail.example.com")).toMatchObject({ secure: false, port: 587, startTls: "auto", user: null });
    expect(parseSmtpUrl("smtps://u:p%40ss@mail.example.com")).toMatchObject({ secure: true, port: 465, user: "u", password: "p@ss" });
    expect(parseSmtpUrl("smtp://mail.example.com:2525?starttls=required")).toMatchObject({ port: 2525, startTls: "required" });
    expect(() => parseSmtpUrl("http://mail.example.com")).toThrow("must start with smtp:// or smtps://");
  });

  test("a subject with a line break cannot add a header or a recipient", async () => {
    smtp = startSmtpServer();
    await createSmtpTransport(smtp.url).send({ from: FROM, to: "ana@southwoods.demo", subject: "Evil\r\nBcc: x@y.z", text: ".dot" });
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(["ana@southwoods.demo"]);
    expect(mail.headers.bcc).toBeUndefined();
    expect(mail.raw).not.toContain("\r\nBcc:");
    expect(mail.body.trim()).toBe(".dot");
  });
});

describe("notification emails, end to end against the demo club", () => {
  test("a confirmed and a failed request each send one message to their member, with the subject of its kind", async () => {
    smtp = startSmtpServer();
    f = await startReleaseFixture({ mail: { transport: createSmtpTransport(smtp.url), from: FROM } });
    f.t.deps.mailSender.start();
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    f.sim.setSlotStatus(OPEN_DATE, "masters", "07:04", "BOOKED");
    await f.submit("jose", submission(OPEN_DATE, ["07:04"]));
    await settle(f);
    const mails = await smtp.waitFor(2);
    const [booking] = await f.bookingsOf("maria");
    const byRecipient = Object.fromEntries(mails.map((m) => [m.to.join(","), m]));
    expect(Object.keys(byRecipient).sort()).toEqual(["jose@southwoods.demo", "maria@southwoods.demo"]);
    expect(byRecipient["maria@southwoods.demo"].subject).toBe(`Teebox booked Masters on ${OPEN_DATE} at 06:00`);
    expect(byRecipient["maria@southwoods.demo"].body).toStartWith(`Booked: Masters on ${OPEN_DATE} at 06:00 (${booking.bookingRef}).\n`);
    expect(byRecipient["jose@southwoods.demo"].subject).toBe(`Teebox could not book Masters on ${OPEN_DATE}`);
    expect(byRecipient["jose@southwoods.demo"].body).toStartWith(`Your request for Masters on ${OPEN_DATE} failed: No selected time was available.`);
    expect(mails.every((m) => m.from === "teebox@southwoods.test")).toBe(true);
    await settle(f);
    expect((await outboxRows(f)).map((r) => [r.recipient, r.state, r.attempts, r.lastError])).toEqual([
      ["maria@southwoods.demo", "sent", 1, null],
      ["jose@southwoods.demo", "sent", 1, null],
    ]);

    // The same event raised again is one message (and one notification).
    const maria = await f.user("maria");
    f.t.deps.notifier.publish({ type: "booking_confirmed", userId: maria.id, course: "Masters", date: OPEN_DATE, time: "06:00", ref: booking.bookingRef });
    await settle(f);
    expect(await outboxRows(f)).toHaveLength(2);
    expect(await f.t.deps.database.db.select().from(notifications).where(eq(notifications.userId, maria.id))).toHaveLength(1);
    expect(smtp.received).toHaveLength(2);
  });

  test("a kind switched off in the profile is listed in the app but not mailed", async () => {
    smtp = startSmtpServer();
    f = await startReleaseFixture({ mail: { transport: createSmtpTransport(smtp.url), from: FROM } });
    f.t.deps.mailSender.start();
    const cookie = await f.t.signIn("maria", "demo1234");
    const saved = await f.t.call("PUT", "/v1/my/notification-settings", { cookie, body: { email: { request_confirmed: false } } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).email).toMatchObject({ request_confirmed: false, request_failed: true });
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    await settle(f);
    expect(await outboxRows(f)).toEqual([]);
    const list = await (await f.t.call("GET", "/v1/my/notifications", { cookie })).json();
    expect(list.items.map((n: { kind: string }) => n.kind)).toEqual(["request_confirmed"]);
    expect(smtp.received).toEqual([]);
    const maria = await f.user("maria");
    expect(await f.t.deps.database.db.select().from(notificationSettings).where(eq(notificationSettings.userId, maria.id))).toEqual([
      { userId: maria.id, kind: "request_confirmed", email: false, push: true, inApp: true },
    ]);
  });

  test("with no SMTP configured the messages stay in the outbox, marked not sent, and the admin sees them", async () => {
    f = await startReleaseFixture();
    f.t.deps.mailSender.start();
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    await settle(f);
    const [row] = await outboxRows(f);
    expect(row).toMatchObject({
      recipient: "maria@southwoods.demo",
      state: "queued",
      attempts: 0,
      lastError: NO_SMTP_NOTE,
      subject: `Teebox booked Masters on ${OPEN_DATE} at 06:00`,
    });
    const admin = await f.t.signIn("admin", ADMIN_PASSWORD);
    const answer = await (await f.t.call("GET", "/v1/admin/mail-outbox", { cookie: admin })).json();
    expect(answer).toMatchObject({ smtp: null, counts: { queued: 1, sent: 0, failed: 0 } });
    expect(answer.messages[0]).toMatchObject({ recipient: "maria@southwoods.demo", state: "queued", lastError: NO_SMTP_NOTE });
    expect(answer.messages[0].body).toContain("Booked: Masters");
    const member = await f.t.signIn("jose", "demo1234");
    expect((await f.t.call("GET", "/v1/admin/mail-outbox", { cookie: member })).status).toBe(403);
  });
});

describe("a mail server that is down delays nothing else", () => {
  const RETRIES = { maxAttempts: 3, retryDelaysMs: [60_000, 120_000] };

  test("closed port: a request still fires on the release instant while the mail job retries; the message fails after its attempts", async () => {
    const port = await closedPort();
    f = await startReleaseFixture({ mail: { transport: createSmtpTransport(`smtp://127.0.0.1:${port}`), from: FROM, ...RETRIES } });
    f.t.deps.mailSender.start();
    // Maria's booking is mailed (and fails: nobody listens); Jose's request waits for the release.
    await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
    await f.submit("jose", submission(PLAY, ["06:08"]));
    await settle(f);
    let [mail] = await outboxRows(f);
    expect(mail).toMatchObject({ state: "queued", attempts: 1 });
    expect(mail.lastError).toContain("could not be reached");
    expect(mail.nextAttemptAt).toBe(f.clock.now() + 60_000);

    // Through the release: the retries fall due around it and Jose's post leaves on the instant.
    await f.moveTo(RELEASE - 60_000);
    await settle(f);
    await f.moveTo(RELEASE);
    await settle(f);
    const jose = f.sim.attempts().filter((a) => a.email === "jose@southwoods.demo" && !a.isRival);
    expect(jose).toHaveLength(1);
    expect(jose[0]).toMatchObject({ outcome: "confirmed", arrivedClubMs: RELEASE });
    const [joseRequest] = await f.t.deps.database.db.select().from(bookingRequests).where(eq(bookingRequests.playDate, PLAY));
    expect(joseRequest).toMatchObject({ status: "confirmed", latenessMs: 0 });

    // Every due retry is tried, and after the third attempt the message is failed for good.
    for (let i = 0; i < 10 && (await outboxRows(f)).some((r) => r.state === "queued"); i++) {
      await f.clock.advance(60_000);
      await settle(f);
    }
    [mail] = await outboxRows(f);
    expect(mail).toMatchObject({ state: "failed", attempts: 3 });
    expect(mail.lastError).toContain("could not be reached");
    expect(f.t.deps.jobs.get("mail sender")).toMatchObject({ status: "errored" });
  });

  test("a server that never answers: the send gives up after its timeout and nothing waits for it", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      f = await startReleaseFixture({ mail: { transport: createSmtpTransport(`smtp://127.0.0.1:${silent.port}`, { timeoutMs: 300 }), from: FROM, ...RETRIES } });
      f.t.deps.mailSender.start();
      const startedAt = performance.now();
      await f.submit("maria", submission(OPEN_DATE, ["06:00"]));
      await f.t.deps.notifier.settled!();
      // The booking and its notification did not wait for the mail server.
      expect(performance.now() - startedAt).toBeLessThan(250);
      expect(await f.t.deps.database.db.select().from(notifications)).toHaveLength(1);
      await f.submit("ana", submission(OPEN_DATE, ["06:16"]));
      expect((await f.bookingsOf("ana")).map((b) => b.time)).toEqual(["06:16"]);
      await f.t.deps.mailSender.idle();
      const [mail] = await outboxRows(f);
      expect(mail).toMatchObject({ state: "queued", attempts: 1 });
      expect(mail.lastError).toContain("did not answer within 300 ms");
    } finally {
      silent.stop(true);
    }
  });
});
