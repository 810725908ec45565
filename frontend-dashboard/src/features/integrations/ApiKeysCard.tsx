import type { ApiKeyScope } from '@app/contracts';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { API_KEY_SCOPES } from '@app/contracts/rules';
import { Alert, Badge, Button, Panel, Spinner, TextField } from '@app/ui';
import { useId, useState, type FormEvent } from 'react';
import { failureMessage } from '../../store/api';
import { useGetMeQuery } from '../auth/authApi';
import { fieldError } from './fieldError';
import { useCreateApiKeyMutation, useGetApiKeysQuery, useGetHooksQuery, useRemoveHookMutation, useRevokeApiKeyMutation } from './integrationsApi';
import styles from './Integrations.module.css';

const SCOPE_LABEL: Record<ApiKeyScope, string> = { 'leads:read': 'Read leads (leads:read)', 'hooks:write': 'Subscribe to new leads (hooks:write)' };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/**
 * API keys for Zapier, Make, n8n or your own code (the public API, /api/v1): created here, shown once,
 * revoked here; and the REST hooks integrations subscribed with them.
 */
export function ApiKeysCard({ agentId }: { agentId: string }) {
  const ids = useId();
  const { data: me } = useGetMeQuery();
  const canChange = !me?.impersonatedBy;
  const keys = useGetApiKeysQuery(agentId);
  const hooks = useGetHooksQuery(agentId);
  const [create, creating] = useCreateApiKeyMutation();
  const [revoke, revoking] = useRevokeApiKeyMutation();
  const [removeHook, removing] = useRemoveHookMutation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([...API_KEY_SCOPES]);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const created = await create({ agentId, body: { name, scopes } }).unwrap();
      setShown({ name: created.name, key: created.key });
      setName('');
    } catch (error) {
      setShown(null);
      setProblem(fieldError(error, 'name') ?? fieldError(error, 'scopes') ?? failureMessage(error) ?? 'Could not create the key');
    }
  };

  const onRevoke = async (keyId: number, keyName: string) => {
    if (!window.confirm(`Revoke the key “${keyName}”? Apps using it stop working at once.`)) return;
    try {
      await revoke({ agentId, keyId }).unwrap();
      // The key shown once is no more: do not leave it on the screen.
      setShown(null);
    } catch (error) {
      setProblem(failureMessage(error) ?? 'Could not revoke the key');
    }
  };

  return (
    <Panel title="API Keys" className={styles.card} aria-label="API Keys" data-testid="api-keys-card">
      <p className={styles.intro}>Connect Zapier, Make, n8n or your own software: they use a key to read your leads and to receive each new lead as it arrives.</p>
      {!canChange && <Alert tone="info">An admin viewing as this agent cannot create or revoke API keys.</Alert>}
      {canChange && (
        <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
          <TextField id={`${ids}-name`} label="Key name" hint="Where you will use it, e.g. “Zapier”." error={problem} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          <fieldset className={styles.scopes} aria-label="Scopes">
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className={styles.check}>
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(e) => setScopes((s) => (e.target.checked ? [...s, scope] : s.filter((x) => x !== scope)))}
                />
                {SCOPE_LABEL[scope]}
              </label>
            ))}
          </fieldset>
          <div className={styles.row}>
            <Button type="submit" busy={creating.isLoading} disabled={creating.isLoading}>
              Create Key
            </Button>
          </div>
        </form>
      )}
      {shown && (
        <Alert tone="success" title={`Your new key “${shown.name}” (shown only once)`}>
          <p className={styles.intro}>Copy it now and paste it into the app. It will not be shown again.</p>
          <code className={styles.key} data-testid="new-api-key">
            {shown.key}
          </code>
        </Alert>
      )}
      {keys.isLoading ? (
        <Spinner label="Loading API keys..." />
      ) : keys.data && keys.data.length > 0 ? (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Scopes</th>
              <th scope="col">Last used</th>
              <th scope="col" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  {k.scopes.map((s) => (
                    <Badge key={s}>{s}</Badge>
                  ))}
                </td>
                <td className={styles.muted}>{when(k.lastUsedAt)}</td>
                <td>
                  {canChange && (
                    <Button variant="ghost" onClick={() => void onRevoke(k.id, k.name)} disabled={revoking.isLoading} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={styles.muted}>No API keys yet.</p>
      )}
      <h3 className={styles.subheading}>Subscribed apps</h3>
      {hooks.data && hooks.data.length > 0 ? (
        <ul className={styles.form}>
          {hooks.data.map((h) => (
            <li key={h.id} className={styles.row}>
              <code>{h.targetUrl}</code>
              <span className={styles.muted}>since {when(h.createdAt)}</span>
              {canChange && (
                <Button variant="ghost" disabled={removing.isLoading} onClick={() => void removeHook({ agentId, hookId: h.id })} aria-label={`Remove hook ${h.id}`}>
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No app is subscribed to new leads. Turning on a Zap or scenario subscribes it here.</p>
      )}
    </Panel>
  );
}
