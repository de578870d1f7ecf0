/**
 * A small SMTP client (RFC 5321) for Teebox's notification emails: one connection per message,
 * EHLO (HELO when refused), STARTTLS when the server offers it, AUTH PLAIN or LOGIN when the URL
 * carries a user, MAIL FROM, RCPT TO, DATA and QUIT. Plain-text messages only (RFC 5322, MIME
 * text/plain in UTF-8). Written because no mail library is installed; the MailTransport interface
 * lets a library such as nodemailer take its place without touching the mail job.
 *
 * SMTP_URL forms: smtp://[user:password@]host[:port] (port 587; STARTTLS when offered),
 * smtps://…[:port] (port 465; TLS from the first byte). `?starttls=off` never upgrades;
 * `?starttls=required` refuses a server that does not offer it.
 */
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls, type ConnectionOptions } from "node:tls";
import { hostname } from "node:os";
import { addressOf, MailError, type MailMessage, type MailTransport } from "./transport.ts";

export interface SmtpTarget {
  secure: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string | null;
  startTls: "auto" | "off" | "required";
}

/** Reads an SMTP_URL; throws a plain Error naming what is wrong (config.ts turns it into one line). */
export function parseSmtpUrl(raw: string): SmtpTarget {
  const url = new URL(raw);
  const secure = url.protocol === "smtps:";
  if (!secure && url.protocol !== "smtp:") throw new Error("must start with smtp:// or smtps://");
  if (!url.hostname) throw new Error("must name a host, such as smtp://mail.example.com:587");
  const startTls = url.searchParams.get("starttls") ?? "auto";
  if (startTls !== "auto" && startTls !== "off" && startTls !== "required") throw new Error("starttls must be off or required");
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    startTls: secure ? "off" : startTls,
  };
}

export interface SmtpOptions {
  /** The whole conversation of one message, from connecting to QUIT. Default 30 s. */
  timeoutMs?: number;
  /** The name Teebox gives in EHLO. */
  clientName?: string;
  /** Extra TLS options (a private CA, say). */
  tls?: ConnectionOptions;
  now?: () => number;
}

interface Reply {
  code: number;
  lines: string[];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const CRLF = "\r\n";

/** Reads replies from a socket: one `read()` per reply, multi-line replies joined. */
function createReader(socket: Socket) {
  let buffer = "";
  let lines: string[] = [];
  const replies: Reply[] = [];
  let waiter: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | null = null;
  let failure: Error | null = null;

  const onData = (chunk: Buffer | string) => {
    buffer += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    let end: number;
    while ((end = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!match) {
        fail(new MailError(`the mail server answered something that is not SMTP: ${line.slice(0, 80)}`, true));
        return;
      }
      lines.push(match[3]);
      if (match[2] !== "-") {
        replies.push({ code: Number(match[1]), lines });
        lines = [];
      }
    }
    flush();
  };
  const onClose = () => fail(new MailError("the mail server closed the connection", true));
  const onError = (error: Error) => fail(new MailError(`the mail server could not be reached: ${error.message}`, true));

  function flush() {
    if (waiter && replies.length > 0) {
      const current = waiter;
      waiter = null;
      current.resolve(replies.shift()!);
    }
  }
  function fail(error: Error) {
    failure ??= error;
    if (waiter) {
      const current = waiter;
      waiter = null;
      current.reject(failure);
    }
  }

  socket.on("data", onData);
  socket.on("close", onClose);
  socket.on("error", onError);
  return {
    read(): Promise<Reply> {
      if (replies.length > 0) return Promise.resolve(replies.shift()!);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    fail,
    detach() {
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onError);
    },
  };
}

function openSocket(target: SmtpTarget, tls: ConnectionOptions | undefined, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = target.secure
      ? connectTls({ host: target.host, port: target.port, servername: isIp(target.host) ? undefined : target.host, ...tls })
      : connectTcp({ host: target.host, port: target.port });
    const onAbort = () => {
      socket.destroy();
      reject(new MailError("the mail server could not be reached in time", true));
    };
    const onError = (error: Error) => {
      signal.removeEventListener("abort", onAbort);
      reject(new MailError(`the mail server could not be reached: ${error.message}`, true));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("error", onError);
    socket.once(target.secure ? "secureConnect" : "connect", () => {
      signal.removeEventListener("abort", onAbort);
      socket.off("error", onError);
      resolve(socket);
    });
  });
}

function upgrade(socket: Socket, target: SmtpTarget, tls: ConnectionOptions | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const secured = connectTls({ socket, servername: isIp(target.host) ? undefined : target.host, ...tls });
    secured.once("error", (error) => reject(new MailError(`STARTTLS failed: ${error.message}`, true)));
    secured.once("secureConnect", () => resolve(secured));
  });
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(":");

/** Header text on one line; non-ASCII as RFC 2047 encoded words. */
export function encodeHeader(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ").trim();
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  const words: string[] = [];
  let chunk = "";
  for (const char of flat) {
    if (Buffer.byteLength(chunk + char, "utf8") > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join(`${CRLF} `);
}

/** `Name <address>` with the name encoded when it needs to be. */
function encodeMailbox(mailbox: string): string {
  const flat = mailbox.replace(/[\r\n]+/g, " ").trim();
  const match = /^(.*?)\s*<([^<>]+)>$/.exec(flat);
  if (!match || !match[1]) return flat;
  const name = match[1].replace(/^"|"$/g, "");
  return /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/["\\]/g, "")}" <${match[2]}>` : `${encodeHeader(name)} <${match[2]}>`;
}

/** The message as sent after DATA: headers, a blank line, the body; CRLF line ends, dots stuffed. */
export function formatMessage(message: MailMessage, date: Date, messageId: string): string {
  const lines = message.text.replace(/\r\n?/g, "\n").split("\n");
  const isPlain = lines.every((line) => /^[\x20-\x7e\t]*$/.test(line) && line.length <= 998);
  const body = isPlain
    ? lines
    : (Buffer.from(lines.join(CRLF), "utf8").toString("base64").match(/.{1,76}/g) ?? []);
  const headers = [
    `From: ${encodeMailbox(message.from)}`,
    `To: ${encodeMailbox(message.to)}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${messageId}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Transfer-Encoding: ${isPlain ? "7bit" : "base64"}`,
    "Auto-Submitted: auto-generated",
  ];
  return [...headers, "", ...body].map((line) => (line.startsWith(".") ? `.${line}` : line)).join(CRLF);
}

function smtpFailure(step: string, reply: Reply): MailError {
  const text = reply.lines.join(" ").slice(0, 200);
  return new MailError(`the mail server refused ${step}: ${reply.code} ${text}`.trim(), reply.code < 500);
}

export function createSmtpTransport(url: string, options: SmtpOptions = {}): MailTransport {
  const target = parseSmtpUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clientName = (options.clientName ?? hostname()).replace(/[^A-Za-z0-9.-]/g, "") || "teebox";
  const now = options.now ?? Date.now;

  async function converse(message: MailMessage, signal: AbortSignal): Promise<void> {
    const from = addressOf(message.from);
    const to = addressOf(message.to);
    if (!from) throw new MailError(`the sender ${JSON.stringify(message.from)} is not an email address`, false);
    if (!to) throw new MailError(`the recipient ${JSON.stringify(message.to)} is not an email address`, false);

    let socket = await openSocket(target, options.tls, signal);
    let reader = createReader(socket);
    const abort = () => {
      reader.fail(new MailError(signal.reason instanceof Error ? signal.reason.message : "sending was stopped", true));
      socket.destroy();
    };
    signal.addEventListener("abort", abort, { once: true });
    const command = async (line: string): Promise<Reply> => {
      socket.write(line + CRLF);
      return reader.read();
    };
    const expect = async (step: string, reply: Promise<Reply>, ...codes: number[]): Promise<Reply> => {
      const answer = await reply;
      if (!codes.includes(answer.code)) throw smtpFailure(step, answer);
      return answer;
    };
    try {
      if (signal.aborted) abort();
      await expect("the connection", reader.read(), 220);
      const hello = async () => {
        const ehlo = await command(`EHLO ${clientName}`);
        if (ehlo.code === 250) return ehlo.lines.slice(1).map((l) => l.toUpperCase());
        await expect("HELO", command(`HELO ${clientName}`), 250);
        return [];
      };
      let extensions = await hello();
      const offers = (name: string) => extensions.some((e) => e === name || e.startsWith(`${name} `));
      if (!target.secure && target.startTls !== "off" && offers("STARTTLS")) {
        await expect("STARTTLS", command("STARTTLS"), 220);
        reader.detach();
        socket = await upgrade(socket, target, options.tls);
        reader = createReader(socket);
        extensions = await hello();
      } else if (target.startTls === "required") {
        throw new MailError("the mail server does not offer STARTTLS, which SMTP_URL requires", false);
      }
      if (target.user !== null) {
        const auth = extensions.find((e) => e.startsWith("AUTH ") || e.startsWith("AUTH=")) ?? "";
        const password = target.password ?? "";
        if (/\bPLAIN\b/.test(auth)) {
          const token = Buffer.from(`\u0000${target.user}\u0000${password}`, "utf8").toString("base64");
          await expect("the login", command(`AUTH PLAIN ${token}`), 235);
        } else if (/\bLOGIN\b/.test(auth)) {
          await expect("the login", command("AUTH LOGIN"), 334);
          await expect("the login", command(Buffer.from(target.user, "utf8").toString("base64")), 334);
          await expect("the login", command(Buffer.from(password, "utf8").toString("base64")), 235);
        } else {
          throw new MailError("the mail server offers no login Teebox can use (AUTH PLAIN or LOGIN)", false);
        }
      }
      await expect("the sender", command(`MAIL FROM:<${from}>`), 250);
      await expect("the recipient", command(`RCPT TO:<${to}>`), 250, 251);
      await expect("DATA", command("DATA"), 354);
      const messageId = message.messageId ?? `${crypto.randomUUID()}@${from.split("@")[1]}`;
      await expect("the message", command(`${formatMessage(message, new Date(now()), messageId)}${CRLF}.`), 250);
      // The message is accepted; a server that closes instead of answering QUIT changes nothing.
      await command("QUIT").catch(() => undefined);
    } finally {
      signal.removeEventListener("abort", abort);
      reader.detach();
      socket.on("error", () => undefined);
      socket.end();
      socket.destroy();
    }
  }

  return {
    async send(message, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        await converse(message, combined);
      } catch (error) {
        if (timeout.aborted && !(signal?.aborted ?? false)) throw new MailError(`the mail server did not answer within ${timeoutMs} ms`, true);
        throw error instanceof MailError ? error : new MailError(error instanceof Error ? error.message : String(error), true);
      }
    },
    describe: () => `${target.secure ? "smtps" : "smtp"}://${target.host}:${target.port}`,
  };
}
