// The dashboard's page frame (header, theme toggle): placed by the page (dashboard/) and by one agent's dashboard.
export { DashboardLayout } from './DashboardLayout';
