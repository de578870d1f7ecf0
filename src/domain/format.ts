/** Display formats shared by the web app and server messages. */
import { formatEventDate, manilaDate, manilaTimeOfDay } from "./manila-time.ts";

const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/** 512 → '512 B', 1536 → '1.5 KB'; 1024 steps, one decimal above bytes, TB is the largest unit. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** Manila 'Mar 5, 2025 07:00' (the pending-request 'Releases …' text and 'Scheduled For'). */
export function formatReleaseAt(epochMs: number): string {
  return `${formatEventDate(manilaDate(epochMs))} ${manilaTimeOfDay(epochMs).slice(0, 5)}`;
}
