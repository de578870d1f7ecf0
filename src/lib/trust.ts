/**
 * Who may speak for the client, and which host names Teebox answers to.
 *
 * - The client address is the socket's address unless that address is a trusted proxy; then
 *   X-Forwarded-For is read from the right, skipping trusted proxies, and the first address a
 *   trusted hop vouches for is the client. The left-most entries are whatever the client wrote.
 * - X-Forwarded-Proto is believed only from a trusted proxy (it decides Secure cookies).
 * - Host names: a request whose Host is not ours is refused (DNS rebinding), see isAllowedHost.
 */
import { networkInterfaces } from "node:os";

/** One address or network: an IPv4/IPv6 address with an optional /prefix. */
interface Network {
  bits: bigint;
  prefix: number;
  width: 32 | 128;
}

function parseIPv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIPv6(text: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2) return null;
  let body = text;
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  if (body.includes(".")) {
    const lastColon = body.lastIndexOf(":");
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    body = `${body.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = body.split("::") as [string, string | undefined];
  const toGroups = (s: string) => (s === "" ? [] : s.split(":"));
  const headGroups = toGroups(head);
  const restGroups = rest === undefined ? [] : toGroups(rest);
  for (const g of [...headGroups, ...restGroups]) if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
  const known = headGroups.length + restGroups.length;
  if (rest === undefined ? known !== 8 : known > 7) return null;
  const groups = [...headGroups, ...Array.from({ length: 8 - known }, () => "0"), ...restGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** An address as a number; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as its IPv4 address. */
export function parseAddress(text: string): { bits: bigint; width: 32 | 128 } | null {
  const trimmed = text
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  const v4 = parseIPv4(trimmed);
  if (v4 !== null) return { bits: v4, width: 32 };
  const v6 = parseIPv6(trimmed);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { bits: v6 & 0xffffffffn, width: 32 };
  return { bits: v6, width: 128 };
}

function parseNetwork(text: string): Network | null {
  const [address, prefixText] = text.trim().split("/");
  const parsed = parseAddress(address ?? "");
  if (!parsed) return null;
  const prefix = prefixText === undefined ? parsed.width : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > parsed.width || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return null;
  return { bits: parsed.bits, prefix, width: parsed.width };
}

function contains(network: Network, address: { bits: bigint; width: number }): boolean {
  if (network.width !== address.width) return false;
  const shift = BigInt(network.width - network.prefix);
  return network.bits >> shift === address.bits >> shift;
}

export const LOOPBACK_NETWORKS = ["127.0.0.0/8", "::1"];

/** Parses TRUSTED_PROXIES entries; returns the entries that are not an address or network. */
export function invalidNetworks(entries: string[]): string[] {
  return entries.filter((entry) => parseNetwork(entry) === null);
}

export interface TrustSettings {
  /** Addresses or networks (CIDR) of reverse proxies; null: loopback when PUBLIC_ORIGIN is set, else none. */
  trustedProxies?: string[] | null;
  /** Extra host names (besides localhost, loopback, the machine's own addresses and PUBLIC_ORIGIN's host). */
  allowedHosts?: string[];
}

export interface TrustPolicy {
  isTrustedProxy(address: string): boolean;
  /** The client's address from the socket's address and the X-Forwarded-For header. */
  clientAddress(peer: string, forwardedFor: string | undefined): string;
  /** Whether the scheme a proxy reports may be believed. */
  isAllowedHost(hostHeader: string | undefined): boolean;
  allowedHostNames(): string[];
}

function ownAddresses(): string[] {
  try {
    return Object.values(networkInterfaces())
      .flat()
      .filter((info): info is NonNullable<typeof info> => Boolean(info))
      .map((info) => info.address);
  } catch {
    return [];
  }
}

/** The host name of a Host header (no port; IPv6 without brackets; lower case, no trailing dot). */
export function hostNameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(1, value.indexOf("]") < 0 ? undefined : value.indexOf("]"));
  const colon = value.lastIndexOf(":");
  // A bare IPv6 address has several colons and no port.
  const name = colon >= 0 && value.indexOf(":") === colon ? value.slice(0, colon) : value;
  return name.replace(/\.$/, "");
}

function canonicalHost(name: string): string {
  const address = parseAddress(name);
  if (!address) return name.toLowerCase().replace(/\.$/, "");
  return `${address.width}:${address.bits.toString(16)}`;
}

export function createTrustPolicy(publicOrigin: string | null, settings: TrustSettings = {}): TrustPolicy {
  const proxies = (settings.trustedProxies ?? (publicOrigin ? LOOPBACK_NETWORKS : [])).map(parseNetwork).filter((n): n is Network => n !== null);
  const isTrustedProxy = (address: string) => {
    if (proxies.length === 0) return false;
    const parsed = parseAddress(address);
    return parsed !== null && proxies.some((network) => contains(network, parsed));
  };

  // Host names: a browser page at any other name (a rebinding attacker's) is refused. Loopback and
  // the machine's own address literals are always ours: no other site can serve a page at them.
  const names = ["localhost", ...LOOPBACK_NETWORKS.map((n) => n.split("/")[0]!), ...ownAddresses(), ...(settings.allowedHosts ?? [])];
  if (publicOrigin) names.push(new URL(publicOrigin).hostname);
  const allowed = new Set(names.map((n) => canonicalHost(n.replace(/^\[|\]$/g, ""))));
  const isAllowedName = (name: string) => {
    if (allowed.has(canonicalHost(name))) return true;
    if (name === "localhost" || name.endsWith(".localhost")) return true;
    const parsed = parseAddress(name);
    // All of 127.0.0.0/8 is loopback.
    return parsed !== null && parsed.width === 32 && parsed.bits >> 24n === 127n;
  };
  const checked = new Map<string, boolean>();

  return {
    isTrustedProxy,
    clientAddress(peer, forwardedFor) {
      if (!forwardedFor || !isTrustedProxy(peer)) return peer;
      const hops = forwardedFor.split(",").map((s) => s.trim());
      let vouchedBy = peer;
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = hops[i]!;
        // A value that is no address was not written by a proxy: the last trusted hop is all we know.
        if (!parseAddress(hop)) return vouchedBy;
        if (!isTrustedProxy(hop)) return hop;
        vouchedBy = hop;
      }
      return vouchedBy;
    },
    isAllowedHost(hostHeader) {
      if (!hostHeader) return false;
      let answer = checked.get(hostHeader);
      if (answer === undefined) {
        answer = isAllowedName(hostNameOf(hostHeader));
        if (checked.size > 1000) checked.clear();
        checked.set(hostHeader, answer);
      }
      return answer;
    },
    allowedHostNames: () => [...new Set(names)],
  };
}
