/**
 * Notification emails handed to the mail server by nodemailer (one connection per message):
 * STARTTLS or TLS, AUTH, the message's encoding and header safety are the library's. Its failures
 * become MailErrors the mail job understands: a 5xx answer will not change, anything else (a 4xx,
 * a refused or dropped connection, a timeout) may on another try.
 */
import type Nodemailer from "nodemailer";
import { MailError, type MailMessage, type MailTransport } from "./transport.ts";
import { parseSmtpUrl } from "./smtp-url.ts";

/**
 * Its CommonJS build, required: bundling the ES build, `bun build` lifts the library's imports of
 * node:net, node:http, node:tls… to the binary's top level, so every start loaded them (about 15 ms)
 * though the library itself is loaded only when SMTP_URL is set (decision 194).
 */
const nodemailer: typeof Nodemailer = require("nodemailer");

export interface MailTransportOptions {
  /** The whole exchange of one message may take this long. Default 30 s. */
  timeoutMs?: number;
  /** The name Teebox gives in EHLO. */
  clientName?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function createMailTransport(smtpUrl: string, options: MailTransportOptions = {}): MailTransport {
  const target = parseSmtpUrl(smtpUrl);
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transporter = nodemailer.createTransport({
    host: target.host,
    port: target.port,
    secure: target.secure,
    ignoreTLS: target.startTls === "off",
    requireTLS: target.startTls === "required",
    auth: target.user ? { user: target.user, pass: target.password ?? "" } : undefined,
    name: options.clientName,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message: MailMessage) {
      try {
        await transporter.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          messageId: message.messageId ? `<${message.messageId}>` : undefined,
        });
      } catch (error) {
        throw toMailError(error, target, timeout);
      }
    },
    describe: () => `${target.secure ? "smtps" : "smtp"}://${target.host}:${target.port}`,
  };
}

/** What the admin's outbox says of a failure, in words, with the server's own answer when it gave one. */
function toMailError(error: unknown, target: { host: string; port: number }, timeoutMs: number): MailError {
  const failure = error as { responseCode?: unknown; code?: unknown; message?: unknown };
  const message = typeof failure.message === "string" ? failure.message : String(error);
  const responseCode = typeof failure.responseCode === "number" ? failure.responseCode : null;
  if (responseCode !== null) return new MailError(`the mail server answered ${responseCode}: ${message}`, responseCode < 500);
  if (failure.code === "ETIMEDOUT") return new MailError(`the mail server at ${target.host}:${target.port} did not answer within ${timeoutMs} ms`, true);
  return new MailError(`the mail server at ${target.host}:${target.port} could not be reached (${message})`, true);
}
