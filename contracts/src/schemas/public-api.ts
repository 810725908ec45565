import { z } from 'zod';
import { LIMITS, idParam, isAbsoluteUrl, isHttpsUrl, textSchema, tooLongMessage } from './common.js';
import {
  API_KEY_MESSAGES,
  API_KEY_SCOPES,
  HOOK_EVENTS,
  HOOK_MESSAGES,
  SMS_CODE_LENGTH,
  SMS_MESSAGES,
} from '../api-access.js';

/**
 * The public API (v1) and what the dashboard manages for it: API keys, REST hooks, text alerts.
 * Keys authenticate `/api/v1/*` with `Authorization: Bearer <key>` or `X-API-Key: <key>`.
 */

/** POST /api/agents/{id}/api-keys. */
export const apiKeyCreateSchema = z.object({
  name: textSchema(100, API_KEY_MESSAGES.name).pipe(z.string().min(1, { error: API_KEY_MESSAGES.name })),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.scopes }), { error: API_KEY_MESSAGES.scopes })
    .min(1, { error: API_KEY_MESSAGES.scopes })
    .max(API_KEY_SCOPES.length)
    .transform((s) => [...new Set(s)])
    .default([...API_KEY_SCOPES]),
});
export type ApiKeyCreatePayload = z.infer<typeof apiKeyCreateSchema>;
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;


export const apiKeyParamsSchema = z.object({ id: idParam, keyId: idParam });


/** GET /api/v1/leads: newest first; `cursor` is opaque (the previous page's `nextCursor`). */
export const API_LEADS_PAGE_DEFAULT = 25;
export const API_LEADS_PAGE_MAX = 100;
const apiLeadsLimitMessage = `limit must be a whole number from 1 to ${API_LEADS_PAGE_MAX}`;
export const apiLeadsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: apiLeadsLimitMessage })
    .int({ error: apiLeadsLimitMessage })
    .min(1, { error: apiLeadsLimitMessage })
    .max(API_LEADS_PAGE_MAX, { error: apiLeadsLimitMessage })
    .default(API_LEADS_PAGE_DEFAULT),
  cursor: z.string().regex(/^[A-Za-z0-9_-]{4,64}$/, { error: 'Invalid cursor' }).optional(),
});
export type ApiLeadsQuery = z.infer<typeof apiLeadsQuerySchema>;


/**
 * POST /api/v1/hooks {targetUrl, event}. `allowPlainHttp` is the server's OUTBOUND_ALLOW_LOOPBACK (tests
 * only): then an http URL on 127.0.0.1/localhost passes too.
 */
export function makeHookCreateSchema(opts: { allowPlainHttp: boolean } = { allowPlainHttp: false }) {
  const accept = (v: string) => {
    if (isHttpsUrl(v)) return true;
    if (!opts.allowPlainHttp || !isAbsoluteUrl(v, ['http:'])) return false;
    const host = new URL(v).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  };
  return z.object({
    targetUrl: z
      .string({ error: HOOK_MESSAGES.targetUrl })
      .trim()
      .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
      .refine(accept, { error: HOOK_MESSAGES.targetUrl }),
    event: z.enum(HOOK_EVENTS, { error: HOOK_MESSAGES.event }),
  });
}
export const hookCreateSchema = makeHookCreateSchema();
export type HookCreatePayload = z.infer<typeof hookCreateSchema>;


export const hookParamsSchema = z.object({ id: idParam });
export const agentHookParamsSchema = z.object({ id: idParam, hookId: idParam });

// ---- Text alerts (SMS) -------------------------------------------------------------------------

/** PUT /api/agents/{id}/sms: the number to verify, and the consent shown beside it (must be agreed). */
export const smsNumberSchema = z.object({
  phone: textSchema(LIMITS.phone, SMS_MESSAGES.phone).pipe(z.string().min(7, { error: SMS_MESSAGES.phone })),
  consent: z.literal(true, { error: SMS_MESSAGES.consent }),
});
export type SmsNumberPayload = z.infer<typeof smsNumberSchema>;

/** POST /api/agents/{id}/sms/verify. */
export const smsVerifySchema = z.object({
  code: z
    .string({ error: SMS_MESSAGES.code })
    .trim()
    .regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`), { error: SMS_MESSAGES.code }),
});

