import { PageShell } from '../../components/PageShell';

/** `/login` (built in a later issue). */
export default function LoginPage() {
  return <PageShell title="Agent Login" />;
}
