import { useState } from 'react';
import { Alert, Badge, Button, buttonClass } from '@app/ui';
import { LIONDESK_CONNECT_RESULTS, type LionDeskConnectResult } from '@app/contracts/rules';
import { failureMessage } from '../../store/api';
import { useDisconnectLionDeskMutation, useGetLionDeskConnectionQuery } from './notificationsApi';
import type { CardToast } from '../card-toast';
import styles from './LeadNotifications.module.css';

/** What the connect flow said on the way back (`/dashboard?liondesk=<result>`), when it said anything. */
export function lionDeskResultOf(search: string): LionDeskConnectResult | null {
  const value = new URLSearchParams(search).get('liondesk');
  return value && value in LIONDESK_CONNECT_RESULTS ? (value as LionDeskConnectResult) : null;
}

/**
 * LionDesk is connected through OAuth, not a pasted key: "Connect LionDesk" goes to LionDesk's page (a navigation:
 * the server redirects there with a signed state) and comes back to /dashboard?liondesk=…; once connected the card
 * shows so, with Disconnect. A connection LionDesk stopped accepting shows "Reconnect LionDesk".
 */
export function LionDeskConnection({ agentId, canChange, toast }: { agentId: string; canChange: boolean; toast: (t: CardToast) => void }) {
  const status = useGetLionDeskConnectionQuery(agentId);
  const [disconnect, { isLoading: disconnecting }] = useDisconnectLionDeskMutation();
  const [result] = useState(() => (typeof window === 'undefined' ? null : lionDeskResultOf(window.location.search)));
  const connectHref = `/api/agents/${encodeURIComponent(agentId)}/crm/liondesk/connect`;
  const connected = !!status.data?.connected;
  const needsReconnect = !!status.data?.needsReconnect;

  const onDisconnect = async () => {
    try {
      await disconnect(agentId).unwrap();
      toast({ title: 'LionDesk disconnected', tone: 'success' });
    } catch (error) {
      toast({ title: 'Could not disconnect LionDesk', description: failureMessage(error) ?? undefined, tone: 'danger' });
    }
  };

  return (
    <div className={styles.actions} data-testid="liondesk-connection">
      {result && <Alert tone={result === 'connected' ? 'success' : 'warning'}>{LIONDESK_CONNECT_RESULTS[result]}</Alert>}
      {needsReconnect && <Alert tone="warning">LionDesk no longer accepts this connection (access was revoked or expired). Reconnect LionDesk to keep leads arriving there.</Alert>}
      {status.isLoading ? null : connected && !needsReconnect ? (
        <>
          <Badge tone="success">LionDesk connected</Badge>
          {canChange && (
            <Button type="button" variant="secondary" busy={disconnecting} disabled={disconnecting} onClick={onDisconnect}>
              Disconnect
            </Button>
          )}
        </>
      ) : (
        canChange && (
          <a className={buttonClass('primary')} href={connectHref}>
            {needsReconnect ? 'Reconnect LionDesk' : 'Connect LionDesk'}
          </a>
        )
      )}
    </div>
  );
}
