import { z } from 'zod';
import { AD_FORMATS } from '../ad-defaults.js';
import { AUTOPILOT_MESSAGES, AUTOPILOT_WINDOW_MAX_HOURS, AUTOPILOT_WINDOW_MIN_HOURS } from '../autopilot.js';
import { BUDGET_GRID_MESSAGE, isBudgetOnGrid } from '../pricing.js';

const flag = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();

/**
 * PUT /api/agents/:id/autopilot: any subset of the settings; what is left out keeps its value (the
 * defaults, the first time): `{"enabled": true}` alone turns autopilot on.
 */
export const autopilotSettingsInputSchema = z.strictObject({
  enabled: flag('enabled'),
  triggers: z
    .strictObject({ justListed: flag('justListed'), justSold: flag('justSold'), priceImproved: flag('priceImproved') }, { error: 'triggers must be an object' })
    .optional(),
  budget: z.number({ error: BUDGET_GRID_MESSAGE }).refine(isBudgetOnGrid, { error: BUDGET_GRID_MESSAGE }).optional(),
  adFormat: z.enum(AD_FORMATS, { error: 'adFormat must be single or carousel' }).optional(),
  vetoWindowHours: z
    .number({ error: AUTOPILOT_MESSAGES.windowRange })
    .int({ error: AUTOPILOT_MESSAGES.windowRange })
    .min(AUTOPILOT_WINDOW_MIN_HOURS, { error: AUTOPILOT_MESSAGES.windowRange })
    .max(AUTOPILOT_WINDOW_MAX_HOURS, { error: AUTOPILOT_MESSAGES.windowRange })
    .optional(),
  pauseOnPending: flag('pauseOnPending'),
});
export type AutopilotSettingsInput = z.infer<typeof autopilotSettingsInputSchema>;

/** The emailed one-tap links: /autopilot/{token} (a signed token, checked by the server). */
export const autopilotLinkParams = z.object({ token: z.string().min(10).max(600).regex(/^[A-Za-z0-9_~-]+$/, { error: AUTOPILOT_MESSAGES.linkInvalid }) });

/** POST /api/agents/:id/autopilot/runs/:runId/{launch|skip|resume}: the dashboard's buttons. */
export const autopilotRunParams = z.object({
  id: z.coerce.number().int().positive(),
  runId: z.coerce.number().int().positive(),
  action: z.enum(['launch', 'skip', 'resume'], { error: 'action must be launch, skip or resume' }),
});
