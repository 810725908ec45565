import RemoteSection from './RemoteSection';

export default function AdminSection() {
  return <RemoteSection name="admin" basePath="/admin" />;
}
