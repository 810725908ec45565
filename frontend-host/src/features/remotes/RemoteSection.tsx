import type { AuthAgent, RemoteAppComponent, RemoteName, RemoteToast } from '@app/contracts';
import { Component, Suspense, useCallback, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { Spinner } from '@app/ui';
import { useDocumentTitle } from '../../components/PageShell';
import { loadRemoteApp } from '../../remotes/registry';
import { errorText } from '../../store/api';
import { useGetRuntimeConfigQuery } from '../runtime-config/runtimeConfigApi';
import { useToast } from '../toast/useToast';
import styles from './RemoteSection.module.css';

const TITLES: Record<RemoteName, string> = {
  dashboard: 'Agent Dashboard',
  admin: 'Admin Dashboard',
};

type LoadState =
  | { status: 'loading' }
  | { status: 'ready'; App: RemoteAppComponent }
  | { status: 'error'; reason: string };

export interface RemoteSectionProps {
  name: RemoteName;
  /** Where the host mounted the remote; the remote's routes are relative to it. */
  basePath: string;
  /** The host's GET /api/auth/me answer on this load, handed to the remote so it does not ask again. */
  me?: AuthAgent | null;
}

/** Loads a remote's `./App` at runtime and mounts it, with a spinner and a retryable error panel. */
export default function RemoteSection({ name, basePath, me }: RemoteSectionProps) {
  useDocumentTitle(TITLES[name]);
  const config = useGetRuntimeConfigQuery();
  const entry = config.data?.remotes?.[name]?.entry;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  // The remote's toasts show in the shell's one toast area (spec §8), never in a second one of its own.
  const { toast } = useToast();
  const hostToast = useCallback(
    ({ title, description, tone }: RemoteToast) => void toast({ title, description, variant: tone === 'danger' ? 'destructive' : 'default' }),
    [toast],
  );

  useEffect(() => {
    if (!entry) return;
    let current = true;
    setState({ status: 'loading' });
    loadRemoteApp(name, entry).then(
      (module) => current && setState({ status: 'ready', App: module.default }),
      (error: unknown) => current && setState({ status: 'error', reason: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [name, entry, attempt]);

  const retry = useCallback(async () => {
    setState({ status: 'loading' });
    // The entry may have moved since the page loaded: read the runtime config again first.
    await config.refetch();
    setAttempt((n) => n + 1);
  }, [config]);

  let reason: string | null = null;
  if (config.isError) reason = `The runtime configuration could not be read (${errorText(config.error)}).`;
  else if (config.isSuccess && !entry) reason = `No entry is configured for the ${name} remote.`;
  else if (state.status === 'error') reason = state.reason;

  if (reason !== null && !config.isFetching) {
    return <RemoteErrorPanel reason={reason} onRetry={retry} />;
  }
  if (state.status !== 'ready' || config.isFetching) {
    return <Spinner label={`Loading ${TITLES[name]}...`} fullPage />;
  }

  const { App } = state;
  return (
    <RemoteErrorBoundary key={attempt} onRetry={retry}>
      <Suspense fallback={<Spinner label={`Loading ${TITLES[name]}...`} fullPage />}>
        <App basePath={basePath} apiBaseUrl="" me={me} toast={hostToast} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

export function RemoteErrorPanel({ reason, onRetry }: { reason: string; onRetry: () => void }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <main className={styles.panelWrap}>
      <section className={styles.panel} role="alert" aria-labelledby="remote-error-title">
        <h1 id="remote-error-title" className={styles.title}>
          This section could not be loaded
        </h1>
        <p className={styles.text}>
          Something went wrong while loading this part of the app. Check your connection and try again.
        </p>
        <p className={styles.reason}>
          <span className={styles.reasonLabel}>Reason:</span> {reason}
        </p>
        <button
          type="button"
          className={styles.retry}
          disabled={retrying}
          onClick={() => {
            setRetrying(true);
            onRetry();
          }}
        >
          Retry
        </button>
      </section>
    </main>
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** A remote that loads but throws while rendering gets the same panel instead of a blank page. */
class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn('Remote crashed while rendering', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return <RemoteErrorPanel reason={this.state.error.message} onRetry={this.props.onRetry} />;
    }
    return this.props.children;
  }
}
