import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "teebox-config-"));

describe("loadConfig", () => {
  test("defaults: port 3000, a file database in the data folder, the demo club", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe(`file:${join(dir, "teebox.db")}`);
    expect(config.secretKeyFile).toBe(join(dir, "secret.key"));
    expect(config.clubUrl).toBeNull();
    expect(config.logLevel).toBeNull();
  });

  test("reads every variable", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: "8080",
      HOST: "127.0.0.1",
      DATABASE_URL: "libsql://db.example.com?authToken=abc",
      SECRET_KEY: "a-long-enough-secret",
      CLUB_URL: "https://club.example.com/portal",
      ADMIN_PASSWORD: "correct-horse",
      PUBLIC_ORIGIN: "https://teebox.example.com/",
      LOG_LEVEL: "debug",
      CLUB_DATE_ORDER: "dmy",
    });
    expect(config.port).toBe(8080);
    expect(config.clubDateOrder).toBe("dmy");
    expect(config.publicOrigin).toBe("https://teebox.example.com");
    expect(config.clubUrl).toBe("https://club.example.com/portal");
    expect(config.logLevel).toBe("debug");
  });

  test.each([
    ["CLUB_DATE_ORDER", "ymd", "CLUB_DATE_ORDER must be dmy (day first, 05/03/2025 = 5 March) or mdy (month first)"],
    ["PORT", "abc", "PORT must be a whole number from 0 to 65535"],
    ["PORT", "70000", "PORT must be a whole number from 0 to 65535"],
    ["DATABASE_URL", "postgres://x", "DATABASE_URL must start with file:"],
    ["CLUB_URL", "not a url", "CLUB_URL must be a URL"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL must be one of debug, info, warn, error"],
    ["SECRET_KEY", "short", "SECRET_KEY must be at least 16 characters"],
    ["SMTP_URL", "http://mail.example.com", "SMTP_URL must start with smtp:// or smtps://"],
    ["SMTP_URL", "mail.example.com", "SMTP_URL must be a URL such as smtp://"],
    ["MAIL_FROM", "Teebox", "MAIL_FROM must be an email address"],
    ["PUSH_SUBJECT", "admin@example.com", "PUSH_SUBJECT must be a mailto: address or an https: URL"],
    ["PUSH_SUBJECT", "http://teebox.example.com", "PUSH_SUBJECT must be a mailto: address or an https: URL"],
    ["PUSH_SERVICE_ORIGINS", "https://push.example.com/path", "PUSH_SERVICE_ORIGINS must be a comma-separated list of origins"],
    ["PUSH_SERVICE_ORIGINS", "push.example.com", "PUSH_SERVICE_ORIGINS must be a comma-separated list of origins"],
    ["TEEBOX_SIM_CLOCK", "/nowhere/clock", "TEEBOX_SIM_CLOCK must name the simulated clock file a benchmark created"],
  ])("a bad %s stops start-up with one line naming it", (name, value, message) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toStartWith(message);
    expect((error as Error).message).not.toContain("\n");
  });

  test("secrets are not echoed in the error", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ADMIN_PASSWORD: "short" })).toThrow('ADMIN_PASSWORD must be at least 8 characters (got "…")');
    expect(() => loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtp://user:hunter2@mail.example.com?starttls=maybe" })).toThrow(
      'SMTP_URL starttls must be off or required (got "smtp://…@mail.example.com?starttls=maybe")',
    );
  });

  test("email: SMTP_URL and MAIL_FROM together, neither by default; SMTP_URL alone stops start-up", () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ smtpUrl: null, mailFrom: null });
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtps://teebox:pw@mail.example.com", MAIL_FROM: "Teebox <teebox@example.com>" })).toMatchObject({
      smtpUrl: "smtps://teebox:pw@mail.example.com",
      mailFrom: "Teebox <teebox@example.com>",
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtp://mail.example.com" })).toThrow("MAIL_FROM must be set when SMTP_URL is");
  });

  test("push: the VAPID subject is PUSH_SUBJECT, else an https PUBLIC_ORIGIN, else MAIL_FROM's address; extra push services by origin", () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ pushSubject: null, pushServiceOrigins: [] });
    expect(loadConfig({ DATA_DIR: dataDir(), PUSH_SUBJECT: "mailto:admin@southwoods.example" }).pushSubject).toBe("mailto:admin@southwoods.example");
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_ORIGIN: "https://teebox.example.com", MAIL_FROM: "Teebox <teebox@example.com>" }).pushSubject).toBe(
      "https://teebox.example.com",
    );
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_ORIGIN: "http://teebox.lan", MAIL_FROM: "Teebox <teebox@example.com>" }).pushSubject).toBe("mailto:teebox@example.com");
    expect(loadConfig({ DATA_DIR: dataDir(), PUSH_SERVICE_ORIGINS: "https://push.example.com, http://127.0.0.1:8790/" }).pushServiceOrigins).toEqual([
      "https://push.example.com",
      "http://127.0.0.1:8790",
    ]);
  });

  test("real time unless a benchmark names its simulated clock file", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).simClockFile).toBeNull();
    writeFileSync(join(dir, "clock"), new Uint8Array(32));
    expect(loadConfig({ DATA_DIR: dir, TEEBOX_SIM_CLOCK: join(dir, "clock") }).simClockFile).toBe(join(dir, "clock"));
  });
});
