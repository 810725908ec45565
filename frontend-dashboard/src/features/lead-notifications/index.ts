// The Lead Notifications feature's door: the dashboard places the card, and its email notices read the agent's
// settings (how many lead emails wait for a confirmed address).
export { LeadNotificationsCard } from './LeadNotificationsCard';
export { useGetNotificationSettingsQuery } from './notificationsApi';
