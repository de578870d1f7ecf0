/**
 * How Teebox hands an email to a mail server: one small interface, so the mail job (and its tests)
 * do not depend on the library that sends it (nodemailer-transport.ts).
 */
export interface MailMessage {
  /** `Name <address>` or a bare address. */
  from: string;
  to: string;
  subject: string;
  /** Plain text; lines end with \n. */
  text: string;
  /** Message-ID header value without the angle brackets; made up when absent. */
  messageId?: string;
}

export interface MailTransport {
  /** Resolves once the server accepted the message for delivery; rejects with a MailError otherwise. */
  send(message: MailMessage, signal?: AbortSignal): Promise<void>;
  /** Where messages go, without any password, for the admin's outbox. */
  describe(): string;
}

export class MailError extends Error {
  constructor(
    message: string,
    /** True when trying again later may work (the server is down, busy or answered 4xx). */
    readonly isTemporary: boolean,
  ) {
    super(message);
    this.name = "MailError";
  }
}

/** The address of `Name <address>` or of a bare address; null when there is none. */
export function addressOf(mailbox: string): string | null {
  const angled = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailbox);
  const address = angled ? angled[1] : mailbox.trim();
  return /^[^\s@<>()",;:]+@[^\s@<>()",;:]+$/.test(address) ? address : null;
}
