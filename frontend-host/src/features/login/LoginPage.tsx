import { Link } from 'react-router-dom';
import { PageShell } from '../../components/PageShell';

/** `/login` (the two-step form is built in a later issue); "Forgot password?" leads to the emailed reset. */
export default function LoginPage() {
  return (
    <PageShell title="Agent Login">
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
    </PageShell>
  );
}
