/**
 * What a submission is checked against beyond the rules: the form-options lists, the time of day
 * now (Manila), the times that exist on the date (the club's live sheet), and the member's other requests (no identical twin, at most max_open_requests
 * open). The rules themselves live in domain/booking-submission.ts; this reads what they need.
 */
import type { Db } from "../../db/client.ts";
import { checkOpenRequests, type NormalisedSubmission } from "../../domain/booking-submission.ts";
import { badRequest } from "../../lib/errors.ts";
import { readSettings } from "../../services/settings.service.ts";
import { openRequestsOf } from "../../services/submission-context.ts";

/** The parts of the submission context read from the database and the clock (shared with slot watches). */
export { submissionGuards } from "../../services/submission-context.ts";

/** Refuses an identical request and one beyond the member's open-request allowance. */
export async function checkMemberRequests(db: Db, userId: number, sub: NormalisedSubmission, now: number): Promise<void> {
  const existing = await openRequestsOf(db, userId, now);
  const { max_open_requests } = await readSettings(db);
  const problem = checkOpenRequests(existing, { playDate: sub.targetDate, courseId: sub.courseId, firstTime: sub.times[0] ?? "", editTarget: sub.editTarget }, max_open_requests);
  if (problem) throw badRequest(problem.message, problem.errorKey);
}
