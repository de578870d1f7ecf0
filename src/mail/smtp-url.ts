/**
 * SMTP_URL: where notification emails go. smtp://[user:password@]host[:port] (port 587; STARTTLS
 * when the server offers it), smtps://…[:port] (port 465; TLS from the first byte). `?starttls=off`
 * never upgrades; `?starttls=required` refuses a server that does not offer it.
 */
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
