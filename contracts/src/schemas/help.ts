import { z } from 'zod';
import { HELP_FOLLOW_UP_TOPIC, HELP_PREVIOUS_MESSAGES } from '../help.js';
import { LIMITS, tooLongMessage } from './common.js';

export const HELP_MESSAGES = {
  topic: 'Topic is required',
  followUpQuestion: 'Please enter a question',
  context: 'Context must be an object of simple values',
  previousMessages: `At most ${HELP_PREVIOUS_MESSAGES} previous messages`,
} as const;

export const MAX_HELP_CONTEXT_KEYS = 30;

/** Context values are kept simple (no nesting) so the AI prompt cannot be stuffed with objects. */
const contextValue = z.union([
  z.string().max(LIMITS.helpText, { error: tooLongMessage(LIMITS.helpText) }),
  z.number(),
  z.boolean(),
  z.null(),
]);

const topicSchema = z
  .string({ error: HELP_MESSAGES.topic })
  .trim()
  .min(1, { error: HELP_MESSAGES.topic })
  .max(LIMITS.topic, { error: tooLongMessage(LIMITS.topic) });

/** First request: { topic, context } where context is a flat object (e.g. { agentId, webhookUrl }). */
export const helpFirstRequestSchema = z.object({
  topic: topicSchema.refine((t) => t !== HELP_FOLLOW_UP_TOPIC, { error: HELP_MESSAGES.topic }),
  context: z
    .record(z.string().max(100), contextValue, { error: HELP_MESSAGES.context })
    .refine((c) => Object.keys(c).length <= MAX_HELP_CONTEXT_KEYS, { error: HELP_MESSAGES.context })
    .default({}),
});
export type HelpFirstRequest = z.infer<typeof helpFirstRequestSchema>;

/** A chat message as carried in a follow-up's context. */
export const helpChatMessageSchema = z.object({
  id: z.string().max(100).optional(),
  content: z.string({ error: 'Message content is required' }).max(LIMITS.helpText, {
    error: tooLongMessage(LIMITS.helpText),
  }),
  isUser: z.boolean({ error: 'isUser must be true or false' }),
  timestamp: z.union([z.string().max(100), z.number()]).optional(),
});
export type HelpChatMessageValue = z.infer<typeof helpChatMessageSchema>;

/**
 * Follow-up: { topic: 'follow-up', context: { ...original context, originalTopic,
 * previousMessages (last 2), followUpQuestion (non-blank after trimming) } }.
 */
export const helpFollowUpRequestSchema = z.object({
  topic: z.literal(HELP_FOLLOW_UP_TOPIC, { error: HELP_MESSAGES.topic }),
  context: z
    .object({
      originalTopic: topicSchema,
      previousMessages: z
        .array(helpChatMessageSchema)
        .max(HELP_PREVIOUS_MESSAGES, { error: HELP_MESSAGES.previousMessages })
        .default([]),
      followUpQuestion: z
        .string({ error: HELP_MESSAGES.followUpQuestion })
        .trim()
        .min(1, { error: HELP_MESSAGES.followUpQuestion })
        .max(LIMITS.helpText, { error: tooLongMessage(LIMITS.helpText) }),
    })
    .catchall(contextValue)
    .refine((c) => Object.keys(c).length <= MAX_HELP_CONTEXT_KEYS + 3, { error: HELP_MESSAGES.context }),
});
export type HelpFollowUpRequest = z.infer<typeof helpFollowUpRequestSchema>;

export type HelpRequest = HelpFirstRequest | HelpFollowUpRequest;
export type HelpRequestInput = z.input<typeof helpFirstRequestSchema> | z.input<typeof helpFollowUpRequestSchema>;

/**
 * POST /api/ai-help: a follow-up when topic is 'follow-up', otherwise a first request.
 * Dispatches on topic so errors come from the right shape (a plain z.union would report both).
 */
export const helpRequestSchema = z
  .custom<HelpRequestInput>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    error: 'Expected an object with topic and context',
  })
  .transform((v, ctx): HelpRequest => {
    const schema =
      (v as { topic?: unknown }).topic === HELP_FOLLOW_UP_TOPIC ? helpFollowUpRequestSchema : helpFirstRequestSchema;
    const r = schema.safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }
    return z.NEVER;
  });

// The follow-up body builder (buildHelpFollowUp) lives in ../help.ts: the dashboard imports it without zod.

