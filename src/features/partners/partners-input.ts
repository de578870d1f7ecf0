/** What the playing partners' calls accept (decision 200). Strict: a field Teebox does not know is refused. */
import { z } from "zod";
import { INVITATION_ANSWERS, INVITATION_POLICIES } from "../../domain/partners.ts";

export const invitationIdParamSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const answerInputSchema = z.strictObject({ answer: z.enum(INVITATION_ANSWERS) });
export type AnswerInput = z.output<typeof answerInputSchema>;

export const invitationSettingInputSchema = z.strictObject({ from: z.enum(INVITATION_POLICIES) });

/** GET /v1/my/partners/overlaps?date=&time=&memberIds=A,B&requestId= (other query fields, such as the cache buster, are ignored). */
export const overlapsQuerySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation.bad_format"),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.bad_format"),
  memberIds: z
    .string()
    .max(200)
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(40)).max(8)),
  requestId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
