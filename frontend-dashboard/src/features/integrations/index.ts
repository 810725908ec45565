// The integrations feature's door: the dashboard places the API Keys and Text Alerts cards.
export { ApiKeysCard } from './ApiKeysCard';
export { TextAlertsCard } from './TextAlertsCard';
