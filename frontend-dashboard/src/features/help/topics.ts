/** The topics a help icon may open (the general help button uses 'general-help'). */
export type HelpTopic = 'custom-webhook' | 'zapier-setup' | 'crm-integration' | 'webhook-testing' | 'general';

/** 'general' is the icon's name for the spec's general-help topic. */
export const requestTopic = (topic: HelpTopic | string): string => (topic === 'general' ? 'general-help' : topic);
