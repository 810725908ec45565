import RemoteSection from './RemoteSection';

export default function DashboardSection() {
  return <RemoteSection name="dashboard" basePath="/dashboard" />;
}
