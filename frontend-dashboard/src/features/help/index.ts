// The help assistant's door for the rest of the dashboard remote.
export { HelpAssistantProvider, useHelpAssistant } from './HelpAssistantContext';
export { HelpIcon } from './HelpIcon';
export type { HelpTopic } from './topics';
