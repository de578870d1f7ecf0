/**
 * The executable's pages given back (decision 211). Most of what a resting Teebox holds is not its
 * data but the binary itself: of 75 MB at idle, 43–47 MiB were pages of the executable file (the
 * runtime's code and read-only data) that the start touched once, and the kernel maps the
 * neighbours of every page it faults in as well. They are clean pages of a file: nothing is lost
 * when the process lets go of them, they stay in the page cache, and what runs again maps them back
 * with a minor fault.
 *
 * So after a footprint shrink (src/lib/memory.ts) the process tells the kernel it no longer needs
 * them (`madvise(MADV_DONTNEED)`), for every mapping of a file that is read-only and holds no page
 * of its own (no copy-on-write page: for such a page the advice would throw away the copy, as for
 * the relocated data the loader wrote before making it read-only). Linux with glibc only; elsewhere
 * nothing is done.
 */
import { dlopen, type Pointer } from "bun:ffi";
import { readFileSync } from "node:fs";

/** A mapping whose resident pages may be dropped. */
export interface ReleasableMapping {
  start: number;
  length: number;
  residentBytes: number;
}

const MAPPING_HEAD = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ (\d+)\s+(\S.*)?$/;
const ANONYMOUS_KB = /\nAnonymous:\s+(\d+) kB/;
const RESIDENT_KB = /\nRss:\s+(\d+) kB/;
const MADV_DONTNEED = 4;

/**
 * The mappings of `/proc/self/smaps` that are safe to drop: backed by a file (an inode and a path),
 * not writable, with no anonymous page and some page resident.
 */
export function releasableMappings(smaps: string): ReleasableMapping[] {
  const found: ReleasableMapping[] = [];
  for (const block of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = MAPPING_HEAD.exec(block.split("\n", 1)[0]);
    if (!head) continue;
    const [, from, to, permissions, inode, path] = head;
    if (inode === "0" || !path?.startsWith("/") || permissions[0] !== "r" || permissions[1] === "w") continue;
    const anonymousKb = fieldKb(block, ANONYMOUS_KB);
    const residentKb = fieldKb(block, RESIDENT_KB);
    // A missing field reads as unknown, and unknown is never safe.
    if (anonymousKb !== 0 || !residentKb) continue;
    const start = Number.parseInt(from, 16);
    found.push({ start, length: Number.parseInt(to, 16) - start, residentBytes: residentKb * 1024 });
  }
  return found;
}

function fieldKb(block: string, field: RegExp): number | null {
  const match = field.exec(block);
  return match ? Number(match[1]) : null;
}

type Advise = (start: number, length: number, advice: number) => number;
let advise: Advise | null | undefined;

/** libc's madvise through Bun's foreign-function interface, opened once; null where there is none. */
function openAdvise(): Advise | null {
  if (advise !== undefined) return advise;
  advise = null;
  if (process.platform !== "linux") return advise;
  try {
    const libc = dlopen("libc.so.6", { madvise: { args: ["ptr", "usize", "i32"], returns: "i32" } });
    advise = (start, length, advice) => libc.symbols.madvise(start as Pointer, length, advice);
  } catch {
    // Not glibc (musl, or no foreign-function interface): the pages stay, as they always did.
  }
  return advise;
}

/**
 * Drops this process's clean pages of read-only mapped files; the bytes that were resident in the
 * mappings it advised (0 where the platform has no way).
 */
export function releaseMappedFilePages(): number {
  const madvise = openAdvise();
  if (!madvise) return 0;
  let smaps: string;
  try {
    smaps = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return 0;
  }
  let released = 0;
  for (const mapping of releasableMappings(smaps)) {
    if (madvise(mapping.start, mapping.length, MADV_DONTNEED) === 0) released += mapping.residentBytes;
  }
  return released;
}
