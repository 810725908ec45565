/** Help assistant rules (spec 001 §2 Help assistant, §4, §8, §9). */

export const HELP_TOPIC_TITLES = {
  'custom-webhook': 'Custom Webhook Setup',
  'zapier-setup': 'Zapier Integration',
  'crm-integration': 'CRM Integration',
  'webhook-testing': 'Testing Webhooks',
} as const;

export type KnownHelpTopic = keyof typeof HELP_TOPIC_TITLES;
export const DEFAULT_HELP_TITLE = 'Help Assistant';
/** Topic of the general help button. */
export const GENERAL_HELP_TOPIC = 'general-help';
/** Topic of every follow-up request. */
export const HELP_FOLLOW_UP_TOPIC = 'follow-up';
/** A follow-up carries the last 2 messages of the conversation. */
export const HELP_PREVIOUS_MESSAGES = 2;

export const HELP_PENDING_FIRST = 'Getting help...';
export const HELP_PENDING_FOLLOW_UP = 'Thinking...';
export const HELP_FIRST_ERROR = 'Sorry, I encountered an error while generating help. Please try again.';
export const HELP_FOLLOW_UP_ERROR = 'Sorry, I encountered an error. Please try asking again.';

/** The panel title for a topic; 'Help Assistant' for anything not listed. */
export function helpTitle(topic: string | null | undefined): string {
  return topic && Object.prototype.hasOwnProperty.call(HELP_TOPIC_TITLES, topic)
    ? HELP_TOPIC_TITLES[topic as KnownHelpTopic]
    : DEFAULT_HELP_TITLE;
}

/** Body of a follow-up request as the client builds it (see buildHelpFollowUp). */
export interface HelpFollowUpBody {
  topic: typeof HELP_FOLLOW_UP_TOPIC;
  context: {
    originalTopic: string;
    previousMessages: { id?: string; content: string; isUser: boolean; timestamp?: string | number }[];
    followUpQuestion: string;
    [key: string]: unknown;
  };
}

/** Builds the follow-up payload from the first request, the conversation and the new question. */
export function buildHelpFollowUp(
  original: { topic: string; context?: Record<string, string | number | boolean | null> },
  messages: readonly { id?: string; content: string; isUser: boolean; timestamp?: string | number | Date }[],
  question: string,
): HelpFollowUpBody {
  return {
    topic: HELP_FOLLOW_UP_TOPIC,
    context: {
      ...(original.context ?? {}),
      originalTopic: original.topic,
      previousMessages: messages.slice(-HELP_PREVIOUS_MESSAGES).map((m) => ({
        ...(m.id !== undefined ? { id: m.id } : {}),
        content: m.content,
        isUser: m.isUser,
        ...(m.timestamp !== undefined
          ? { timestamp: m.timestamp instanceof Date ? m.timestamp.toISOString() : m.timestamp }
          : {}),
      })),
      followUpQuestion: question.trim(),
    },
  };
}
