// The Lead Notifications feature's door: the dashboard places the card.
export { LeadNotificationsCard } from './LeadNotificationsCard';
