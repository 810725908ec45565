import { Navigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { useDocumentTitle } from '../../components/PageShell';
import { errorText } from '../../store/api';
import { useAuthMe, useGetAccessibleAgentsQuery } from '../auth/authApi';
import RemoteSection, { RemoteErrorPanel } from './RemoteSection';

const LOADING = 'Loading Agent Dashboard...';

/**
 * `/dashboard` (spec 001 §2, DESIGN §3): asks the server who this browser is before any dashboard code is
 * downloaded. A logged-in agent gets the remote. Without a login, only agents this session may open (made
 * here in the wizard, no password yet; GET /api/agents lists exactly those): `?agent={id}` must be one of
 * them, and plain /dashboard needs at least one (its Select Agent lists them). Everyone else goes to /login.
 */
export default function DashboardSection() {
  useDocumentTitle('Agent Dashboard');
  const me = useAuthMe();
  const [params] = useSearchParams();
  const agentParam = Number(params.get('agent'));
  const wantsAgent = Number.isSafeInteger(agentParam) && agentParam > 0;
  const loggedOut = me.isSuccess && me.data === null;
  const agents = useGetAccessibleAgentsQuery(undefined, { skip: !loggedOut, refetchOnMountOrArgChange: true });

  const failed = me.isError ? me.error : agents.isError ? agents.error : null;
  if (failed) return <RemoteErrorPanel reason={errorText(failed)} onRetry={() => void (me.isError ? me.refetch() : agents.refetch())} />;
  // A cached 'logged out' is asked again before it sends anyone away; a cached agent keeps the remote mounted meanwhile.
  if (!me.isSuccess || (me.isFetching && me.data === null)) return <Spinner label={LOADING} fullPage />;
  if (me.data) return <RemoteSection name="dashboard" basePath="/dashboard" me={me.data} />;
  if (!agents.isSuccess || agents.isFetching) return <Spinner label={LOADING} fullPage />;
  const openable = wantsAgent ? agents.data.some((a) => a.id === agentParam) : agents.data.length > 0;
  if (openable) return <RemoteSection name="dashboard" basePath="/dashboard" me={null} />;
  return <Navigate to="/login" replace />;
}
