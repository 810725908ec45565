import { z } from 'zod';

/**
 * Wire types: what the API answers, as zod schemas with the types inferred from them. The backend's
 * presenters return these shapes (a test parses each presenter's output), the frontends import the
 * types, and the OpenAPI document (GET /api/openapi.json) is generated from the same schemas.
 * Timestamps travel as ISO 8601 strings.
 */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/**
 * DESIGN §4: every error response, whatever the status. Some codes add details beside these
 * (mls.no_listings: allowManualEntry; campaigns.not_draft: campaignStatus; payments.amount_mismatch: amount).
 */
export const errorBodySchema = z
  .object({
    message: z.string(),
    code: z.string(),
    /** Dotted field path → its first message ("_root" for the whole body); present on validation errors. */
    fields: z.record(z.string(), z.string()).optional(),
  })
  .catchall(z.unknown());
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** A phone as shown and dialled (contracts/phone.ts, formatted by the server): the page needs no phone library. */
export const phoneLinkSchema = z.object({ display: z.string(), href: z.string().nullable() }).nullable();
