/** Which club Teebox talks to (the demo club in this process, or the real one), and whether it answers. */
import type { ReleaseSettings } from "../domain/release-time.ts";
import type { ClubClient } from "./client.ts";
import type { NumericDateOrder } from "./text.ts";

/** Written into the data folder in demo mode: the demo club's address and control token. */
export const CLUB_INFO_FILE = "demo-club.json";

export interface ClubInfo {
  mode: "demo" | "live";
  url: string;
  /** How the club writes numeric dates (CLUB_DATE_ORDER); absent: numeric dates are not read. */
  numericDateOrder?: NumericDateOrder | null;
}

/**
 * The demo club Teebox started (demo mode only). It is a portal of its own, with its own clock and
 * state; what Teebox tells it goes through its control surface: when dates open follows Teebox's
 * release settings, so an admin trying the demo who moves the release time sees a release then.
 */
export interface DemoClubLink {
  followRelease(settings: ReleaseSettings): void;
}

export interface ClubStatus extends ClubInfo {
  reachable: boolean;
  lastError: string | null;
}

export async function readClubStatus(club: Pick<ClubClient, "clubTime">, info: ClubInfo): Promise<ClubStatus> {
  try {
    // The monitor asks every 5 s: when the club budget is spent (or the club asked Teebox to slow down) it is not asked.
    await club.clubTime({ pace: "skip" });
    return { ...info, reachable: true, lastError: null };
  } catch (error) {
    return { ...info, reachable: false, lastError: error instanceof Error ? error.message : String(error) };
  }
}
