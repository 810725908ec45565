import { Navigate } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { useDocumentTitle } from '../../components/PageShell';
import { errorText } from '../../store/api';
import { useAuthMe } from '../auth/authApi';
import RemoteSection, { RemoteErrorPanel } from './RemoteSection';

const LOADING = 'Loading Agent Dashboard...';

/**
 * `/dashboard` (spec 001 §2, DESIGN §3): asks the server who this browser is before any dashboard code is
 * downloaded. The dashboard is the signed-in agent's (a password, Google, an opened email link, or an admin's
 * Login As): a signed-in browser gets the remote, everyone else goes to /login, which emails a sign-in link.
 */
export default function DashboardSection() {
  useDocumentTitle('Agent Dashboard');
  const me = useAuthMe();

  if (me.isError) return <RemoteErrorPanel reason={errorText(me.error)} onRetry={() => void me.refetch()} />;
  // A cached 'signed out' is asked again before it sends anyone away; a cached agent keeps the remote mounted meanwhile.
  if (!me.isSuccess || (me.isFetching && me.data === null)) return <Spinner label={LOADING} fullPage />;
  if (me.data) return <RemoteSection name="dashboard" basePath="/dashboard" me={me.data} />;
  return <Navigate to="/login" replace />;
}
