import { z } from 'zod';
import { TEMPLATE_TYPES } from '../ad-defaults.js';
import { LIMITS, tooLongMessage } from './common.js';

export const TEMPLATE_TYPE_MESSAGE = 'Template type must be just-listed or just-sold';

export const templateTypeSchema = z.enum(TEMPLATE_TYPES, { error: TEMPLATE_TYPE_MESSAGE });

/** POST /api/listings/:id/optimize-ad-copy: { templateType, refresh? } → { optimizedCopy }. */
export const adCopyRequestSchema = z.object({
  templateType: templateTypeSchema,
  refresh: z.boolean({ error: 'refresh must be true or false' }).optional(),
});
export type AdCopyRequest = z.infer<typeof adCopyRequestSchema>;

export const AD_COPY_TEXT_REQUIRED = 'Ad text is required';

/** Ad copy check (compliance check of a text the agent typed): { text }. */
export const adCopyCheckSchema = z.object({
  text: z
    .string({ error: AD_COPY_TEXT_REQUIRED })
    .trim()
    .min(1, { error: AD_COPY_TEXT_REQUIRED })
    .max(LIMITS.description, { error: tooLongMessage(LIMITS.description) }),
});
export type AdCopyCheckRequest = z.infer<typeof adCopyCheckSchema>;
