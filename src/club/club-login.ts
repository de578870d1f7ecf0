/** Checking a club login, and what a member is told when the club fails (never a 5xx of ours for the club's trouble). */
import { AppError, textError } from "../lib/errors.ts";
import type { ClubClient } from "./client.ts";
import { ClubError } from "./errors.ts";

/** Turns a club failure into the answer a member sees; anything else is rethrown. */
export function clubErrorToAppError(error: unknown): AppError {
  if (!(error instanceof ClubError)) throw error;
  switch (error.kind) {
    case "bad_credentials":
      return textError(400, "club.bad_credentials");
    case "unavailable":
      return error.status === undefined
        ? new AppError(504, "The club's booking site did not answer in time. Please try again.", "club.timeout")
        : new AppError(502, "The club's booking site is having trouble. Please try again later.", "club.unavailable");
    case "page_not_understood":
      return new AppError(502, "The club's booking site answered with a page Teebox could not read.", "club.page_not_understood");
    case "slow_down":
      return textError(503, "club.slow_down");
    case "busy":
      return textError(503, "club.busy");
    default:
      return textError(400, "club.refused", { message: error.message });
  }
}

export async function verifyClubLogin(club: Pick<ClubClient, "verifyCredentials">, email: string, password: string): Promise<void> {
  try {
    await club.verifyCredentials(email, password);
  } catch (error) {
    throw clubErrorToAppError(error);
  }
}
