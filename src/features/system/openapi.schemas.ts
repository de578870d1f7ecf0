/**
 * The outline of the OpenAPI document (GET /v1/openapi.json) that the admin area's API page reads:
 * each operation's summary, group, access, inputs and answers. The document says more (OpenAPI 3.0
 * has many fields), so every object here keeps the fields it does not name. zod/mini: the web app
 * checks the document with it.
 */
import * as z from "../../domain/zod-mini.ts";

/** A JSON schema as the document writes it; the page reads it defensively. */
const jsonSchema = z.unknown();
const media = z.record(z.string(), z.looseObject({ schema: z.optional(jsonSchema) }));

export const apiOperationSchema = z.looseObject({
  summary: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  /** Who may call it: public, member or admin. */
  "x-access": z.optional(z.string()),
  parameters: z.optional(z.array(z.looseObject({ name: z.string(), in: z.string(), required: z.optional(z.boolean()), schema: z.optional(jsonSchema) }))),
  requestBody: z.optional(z.looseObject({ description: z.optional(z.string()), content: media })),
  responses: z.record(z.string(), z.looseObject({ description: z.optional(z.string()), content: z.optional(media) })),
});
export type ApiOperation = z.infer<typeof apiOperationSchema>;

export const apiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), apiOperationSchema)),
  components: z.optional(z.looseObject({ schemas: z.optional(z.record(z.string(), jsonSchema)) })),
});
export type ApiDocument = z.infer<typeof apiDocumentSchema>;
