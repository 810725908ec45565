export { CreditsCard } from './CreditsCard';
export { ReportsCard } from './ReportsCard';
