// The help assistant's words: the topics a help icon may open, and a chat message.

/** The topics a help icon may open (the general help button uses 'general-help'). */
export type HelpTopic = 'custom-webhook' | 'zapier-setup' | 'crm-integration' | 'webhook-testing' | 'general';

/** 'general' is the icon's name for the spec's general-help topic. */
export const requestTopic = (topic: HelpTopic | string): string => (topic === 'general' ? 'general-help' : topic);

/** A chat message (spec 001 §3): id (timestamp string), content, isUser, timestamp. */
export interface ChatMessage {
  id: string;
  content: string;
  isUser: boolean;
  timestamp: Date;
}
