/** The playing partners' calls (decision 200), their answers checked with the server's schemas. */
import type { InvitationAnswer, InvitationPolicy } from "../../../src/domain/partners.ts";
import {
  answerResponseSchema,
  invitationSettingResponseSchema,
  invitationsResponseSchema,
  type InvitationsResponse,
  type ReceivedInvitation,
} from "../../../src/features/partners/partners.schemas.ts";
import { api, ApiError, getJson, withCacheBuster } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";

export type { InvitationsResponse, ReceivedInvitation };

export const listInvitations = (): Promise<InvitationsResponse> => getJson(withCacheBuster(apiPaths.my.invitations), invitationsResponseSchema);

export async function answerInvitation(id: number, answer: InvitationAnswer): Promise<ReceivedInvitation> {
  return (await api.postFor(apiPaths.my.answerInvitation(id), { answer }, answerResponseSchema)).invitation;
}

export async function saveInvitationSetting(from: InvitationPolicy): Promise<InvitationPolicy> {
  return (await api.putFor(apiPaths.my.invitationSettings, { from }, invitationSettingResponseSchema)).from;
}

/** The server's keyed error, for the UI text lookup. */
export function failureOf(error: unknown): { message?: string; errorKey?: string } {
  return error instanceof ApiError ? { message: error.serverMessage, errorKey: error.errorKey } : {};
}
