import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { releasableMappings, releaseMappedFilePages } from "../../src/lib/mapped-pages.ts";

const mapping = (head: string, fields: Record<string, number>) =>
  [head, ...Object.entries(fields).map(([name, kb]) => `${name}:${" ".repeat(Math.max(1, 16 - name.length))}${kb} kB`)].join("\n");

/** A hand-made /proc/self/smaps: the executable's code and data, the loader's relocated data, a heap and the kernel's pages. */
const SMAPS = [
  mapping("00400000-00600000 r--p 00000000 fe:00 2146389                            /opt/teebox/teebox", { Size: 2048, Rss: 1200, Anonymous: 0 }),
  mapping("00600000-02600000 r-xp 00200000 fe:00 2146389                            /opt/teebox/teebox", { Size: 32768, Rss: 21384, Anonymous: 0 }),
  // Relocated by the loader, then made read-only: its pages are copies, and the advice would throw them away.
  mapping("02600000-02608000 r--p 02200000 fe:00 2146389                            /opt/teebox/teebox", { Size: 32, Rss: 32, Anonymous: 12 }),
  mapping("02608000-02610000 rw-p 02208000 fe:00 2146389                            /opt/teebox/teebox", { Size: 32, Rss: 32, Anonymous: 0 }),
  mapping("02610000-02620000 rw-p 00000000 00:00 0                                  [heap]", { Size: 64, Rss: 64, Anonymous: 64 }),
  mapping("7f0000000000-7f0000100000 rw-p 00000000 00:00 0 ", { Size: 1024, Rss: 512, Anonymous: 512 }),
  mapping("7f0000100000-7f0000200000 r--s 00000000 fe:00 1200                       /data/teebox.db-shm", { Size: 1024, Rss: 8, Anonymous: 0 }),
  mapping("7f0000200000-7f0000300000 r-xp 00026000 fe:00 339380                     /usr/lib/x86_64-linux-gnu/libc.so.6", { Size: 1024, Rss: 0, Anonymous: 0 }),
  mapping("7f0000300000-7f0000400000 r-xp 00026000 fe:00 339381                     /usr/lib/libold.so (deleted)", { Size: 1024, Rss: 40 }),
  mapping("7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]", { Size: 8, Rss: 4, Anonymous: 0 }),
  "",
].join("\n");

describe("the executable's pages given back (decision 211)", () => {
  test("only clean pages of read-only mapped files are chosen", () => {
    expect(releasableMappings(SMAPS)).toEqual([
      { start: 0x400000, length: 0x200000, residentBytes: 1200 * 1024 },
      { start: 0x600000, length: 0x2000000, residentBytes: 21384 * 1024 },
      { start: 0x7f0000100000, length: 0x100000, residentBytes: 8 * 1024 },
    ]);
  });

  test("a mapping whose anonymous pages are not listed is left alone: unknown is never safe", () => {
    expect(releasableMappings(SMAPS.replace("Anonymous:       0 kB", "Swap:            0 kB"))[0].start).toBe(0x600000);
    expect(releasableMappings("garbage\nRss: 12 kB\n")).toEqual([]);
  });

  test.skipIf(process.platform !== "linux")("this process lets go of its executable's pages, and its native code still runs after", async () => {
    const residentFileKb = () => Number(/RssFile:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
    const before = residentFileKb();
    const released = releaseMappedFilePages();
    const after = residentFileKb();
    expect(released).toBeGreaterThan(1024 * 1024);
    expect(after).toBeLessThan(before - 1024);

    // The runtime's code comes back from the page cache as it runs: a server, a request, a hash, JSON.
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ ok: true }) });
    try {
      const answer = (await (await fetch(`http://127.0.0.1:${server.port}/`)).json()) as { ok: boolean };
      expect(answer.ok).toBe(true);
      expect(new Bun.CryptoHasher("sha256").update("teebox").digest("hex")).toHaveLength(64);
    } finally {
      server.stop(true);
    }
  });
});
