import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { createTrustPolicy, hostNameOf, parseAddress } from "../../src/lib/trust.ts";

describe("client address", () => {
  test("without PUBLIC_ORIGIN or TRUSTED_PROXIES nobody is a proxy: the socket's address counts", () => {
    expect(createTrustPolicy(null).clientAddress("127.0.0.1", "6.6.6.6")).toBe("127.0.0.1");
  });

  test("with PUBLIC_ORIGIN loopback is the proxy, and the right-most untrusted hop is the client", () => {
    const trust = createTrustPolicy("https://teebox.example");
    expect(trust.clientAddress("127.0.0.1", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(trust.clientAddress("::ffff:127.0.0.1", "203.0.113.9, 127.0.0.1")).toBe("203.0.113.9");
    expect(trust.clientAddress("198.51.100.1", "203.0.113.9")).toBe("198.51.100.1");
    // A hop that is no address was written by the client: the proxy's own address is all we know.
    expect(trust.clientAddress("127.0.0.1", "203.0.113.9, not-an-ip")).toBe("127.0.0.1");
  });

  test("networks in CIDR form, IPv4 and IPv6", () => {
    const trust = createTrustPolicy(null, { trustedProxies: ["10.0.0.0/8", "fd00::/8"] });
    expect(trust.isTrustedProxy("10.200.3.4")).toBe(true);
    expect(trust.isTrustedProxy("11.0.0.1")).toBe(false);
    expect(trust.isTrustedProxy("fd12::1")).toBe(true);
    expect(trust.isTrustedProxy("fe80::1")).toBe(false);
    expect(parseAddress("1.2.3")).toBeNull();
    expect(parseAddress("::ffff:10.0.0.1")).toEqual(parseAddress("10.0.0.1"));
  });
});

describe("host names", () => {
  test("host header forms", () => {
    expect(hostNameOf("Example.COM:443")).toBe("example.com");
    expect(hostNameOf("[::1]:3000")).toBe("::1");
    expect(hostNameOf("teebox.example.")).toBe("teebox.example");
  });

  test("loopback and localhost are always ours, other names only when configured", () => {
    const trust = createTrustPolicy("https://teebox.example:8443", { allowedHosts: ["golf.example"] });
    for (const host of ["localhost:3000", "127.0.0.1", "[::1]", "teebox.example", "TEEBOX.example:443", "golf.example"])
      expect({ host, ok: trust.isAllowedHost(host) }).toEqual({ host, ok: true });
    for (const host of ["attacker.example", "teebox.example.attacker.example", "", "127.0.0.1.nip.io"])
      expect({ host, ok: trust.isAllowedHost(host) }).toEqual({ host, ok: false });
  });
});

describe("settings", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "teebox-trust-"));
  test("TRUSTED_PROXIES and ALLOWED_HOSTS are read as lists", () => {
    const config = loadConfig({ DATA_DIR: dir(), TRUSTED_PROXIES: "10.0.0.1, 172.16.0.0/12", ALLOWED_HOSTS: "Teebox.Example, golf.example" });
    expect(config.trustedProxies).toEqual(["10.0.0.1", "172.16.0.0/12"]);
    expect(config.allowedHosts).toEqual(["teebox.example", "golf.example"]);
    expect(loadConfig({ DATA_DIR: dir() }).trustedProxies).toBeNull();
  });
  test("a bad TRUSTED_PROXIES stops start-up with one line naming it", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), TRUSTED_PROXIES: "10.0.0.1, proxy.local" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), TRUSTED_PROXIES: "10.0.0.0/40" })).toThrow(/TRUSTED_PROXIES/);
  });
});
