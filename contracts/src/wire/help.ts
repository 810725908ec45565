import { z } from 'zod';

/** POST /api/ai-help answer: the assistant's reply as Markdown. */
export const helpResponseSchema = z.object({ response: z.string() });
export type HelpResponse = z.infer<typeof helpResponseSchema>;
