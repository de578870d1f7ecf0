/**
 * A real SMTP server on loopback for the mail tests (Bun.listen): EHLO/HELO, MAIL FROM, RCPT TO,
 * DATA, RSET, NOOP and QUIT, enough for any client that speaks RFC 5321 without extensions. It
 * keeps every message it accepted, with its envelope and its parsed headers and body.
 */
import type { Socket, TCPSocketListener } from "bun";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent after DATA, dots unstuffed, CRLF line ends. */
  raw: string;
  headers: Record<string, string>;
  subject: string;
  /** The body decoded (7bit, quoted-printable or base64). */
  body: string;
}

export interface SmtpServerOptions {
  /** Answers this to the next N messages' DATA ending instead of 250 (e.g. 451 to make the client retry). */
  refuseNext?: { count: number; code: number; text: string };
  /** Require AUTH PLAIN with these (advertised in EHLO). */
  login?: { user: string; password: string };
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Every command line the server read, for asserting the conversation. */
  commands: string[];
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  setOptions(options: SmtpServerOptions): void;
  stop(): void;
}

interface Session {
  buffer: string;
  from: string | null;
  to: string[];
  inData: boolean;
  data: string[];
  isAuthed: boolean;
}

function decodeHeaderValue(value: string): string {
  return value
    .replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/gi, (_, b64: string) => Buffer.from(b64, "base64").toString("utf8"))
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=\s*/gi, (_, q: string) => decodeQuotedPrintable(q.replace(/_/g, " ")))
    .trim();
}

function parseMessage(raw: string): { headers: Record<string, string>; subject: string; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const rawBody = split === -1 ? "" : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  let last = "";
  for (const line of head.split("\r\n")) {
    if (/^\s/.test(line) && last) headers[last] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(":");
      if (colon === -1) continue;
      last = line.slice(0, colon).toLowerCase();
      headers[last] = line.slice(colon + 1).trim();
    }
  }
  for (const name of Object.keys(headers)) headers[name] = decodeHeaderValue(headers[name]);
  const encoding = headers["content-transfer-encoding"] ?? "";
  const body = /base64/i.test(encoding)
    ? Buffer.from(rawBody.replace(/\s+/g, ""), "base64").toString("utf8")
    : /quoted-printable/i.test(encoding)
      ? decodeQuotedPrintable(rawBody)
      : rawBody;
  return { headers, subject: headers.subject ?? "", body: body.replace(/\r\n/g, "\n") };
}

/** `port` 0 takes a free one; a given port lets a test take the server down and bring it back where Teebox expects it. */
export function startSmtpServer(initial: SmtpServerOptions = {}, port = 0): TestSmtpServer {
  let options: SmtpServerOptions = { ...initial };
  const received: ReceivedMail[] = [];
  const commands: string[] = [];
  const waiters: { count: number; resolve: (mails: ReceivedMail[]) => void }[] = [];

  const reply = (socket: Socket<Session>, line: string) => socket.write(`${line}\r\n`);

  function onLine(socket: Socket<Session>, line: string) {
    const s = socket.data;
    if (s.inData) {
      if (line === ".") {
        s.inData = false;
        const raw = s.data.join("\r\n");
        s.data = [];
        const refuse = options.refuseNext;
        if (refuse && refuse.count > 0) {
          refuse.count -= 1;
          reply(socket, `${refuse.code} ${refuse.text}`);
        } else {
          received.push({ from: s.from ?? "", to: [...s.to], raw, ...parseMessage(raw) });
          reply(socket, "250 2.0.0 Ok: queued");
          for (const waiter of [...waiters]) {
            if (received.length >= waiter.count) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve([...received]);
            }
          }
        }
        s.from = null;
        s.to = [];
        return;
      }
      s.data.push(line.startsWith("..") ? line.slice(1) : line);
      return;
    }
    commands.push(line);
    const verb = line.split(" ")[0].toUpperCase();
    switch (verb) {
      case "EHLO":
        reply(socket, "250-teebox-test-smtp");
        if (options.login) reply(socket, "250-AUTH PLAIN");
        reply(socket, "250 8BITMIME");
        return;
      case "HELO":
        reply(socket, "250 teebox-test-smtp");
        return;
      case "AUTH": {
        const token = line.split(" ")[2] ?? "";
        const [, user, password] = Buffer.from(token, "base64").toString("utf8").split("\u0000");
        s.isAuthed = options.login !== undefined && user === options.login.user && password === options.login.password;
        reply(socket, s.isAuthed ? "235 2.7.0 Authentication successful" : "535 5.7.8 Authentication credentials invalid");
        return;
      }
      case "MAIL": {
        if (options.login && !s.isAuthed) return reply(socket, "530 5.7.0 Authentication required");
        const match = /^MAIL FROM:\s*<([^>]*)>/i.exec(line);
        if (!match) return reply(socket, "501 5.5.4 Syntax: MAIL FROM:<address>");
        s.from = match[1];
        s.to = [];
        return reply(socket, "250 2.1.0 Ok");
      }
      case "RCPT": {
        const match = /^RCPT TO:\s*<([^>]*)>/i.exec(line);
        if (!s.from) return reply(socket, "503 5.5.1 Error: need MAIL command");
        if (!match) return reply(socket, "501 5.5.4 Syntax: RCPT TO:<address>");
        if (match[1].startsWith("nobody@")) return reply(socket, "550 5.1.1 Recipient address rejected: User unknown");
        s.to.push(match[1]);
        return reply(socket, "250 2.1.5 Ok");
      }
      case "DATA":
        if (s.to.length === 0) return reply(socket, "503 5.5.1 Error: need RCPT command");
        s.inData = true;
        return reply(socket, "354 End data with <CR><LF>.<CR><LF>");
      case "RSET":
        s.from = null;
        s.to = [];
        return reply(socket, "250 2.0.0 Ok");
      case "NOOP":
        return reply(socket, "250 2.0.0 Ok");
      case "QUIT":
        reply(socket, "221 2.0.0 Bye");
        socket.end();
        return;
      default:
        reply(socket, "502 5.5.2 Error: command not recognized");
    }
  }

  const server: TCPSocketListener<Session> = Bun.listen<Session>({
    hostname: "127.0.0.1",
    port,
    socket: {
      open(socket) {
        socket.data = { buffer: "", from: null, to: [], inData: false, data: [], isAuthed: false };
        reply(socket, "220 teebox-test-smtp ESMTP ready");
      },
      data(socket, chunk) {
        socket.data.buffer += chunk.toString("utf8");
        let end: number;
        while ((end = socket.data.buffer.indexOf("\r\n")) !== -1) {
          const line = socket.data.buffer.slice(0, end);
          socket.data.buffer = socket.data.buffer.slice(end + 2);
          onLine(socket, line);
        }
      },
    },
  });

  return {
    port: server.port,
    url: `smtp://127.0.0.1:${server.port}`,
    received,
    commands,
    waitFor(count, timeoutMs = 5000) {
      if (received.length >= count) return Promise.resolve([...received]);
      return new Promise((resolve, reject) => {
        const waiter = { count, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const at = waiters.indexOf(waiter);
          if (at === -1) return;
          waiters.splice(at, 1);
          reject(new Error(`the test SMTP server got ${received.length} message(s), not ${count}, within ${timeoutMs} ms`));
        }, timeoutMs);
      });
    },
    setOptions(next) {
      options = { ...next };
    },
    stop() {
      server.stop(true);
    },
  };
}

/** A loopback port nothing listens on (bound, then closed): a mail server that is down. */
export async function closedPort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** RFC 2045 quoted-printable: soft line breaks removed, =XX bytes decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
