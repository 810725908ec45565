import type { ReactNode } from 'react';
import { Alert, Button } from '@app/ui';
import { isApiError } from '../../store/api';
import { useEmailAgentSignInLinkMutation } from './authApi';

/**
 * The offer a wizard browser gets for an agent that already has an owner (DESIGN §3): it may still build and pay
 * for an ad that promotes the agent, while leads and the dashboard are the agent's, reached by signing in. The
 * link goes to the agent's own address (shown masked); opening it signs that browser in, no password needed.
 */
export function SignInLinkOffer({ agentId, name, children }: { agentId: number; name: string; children?: ReactNode }) {
  const [send, state] = useEmailAgentSignInLinkMutation();
  const failure = isApiError(state.error) ? (state.error.serverMessage ?? state.error.message) : state.isError ? 'Please try again.' : null;
  return (
    <Alert tone="info" testId="sign-in-offer">
      <p>
        <strong>{name} already has an account.</strong> {children ?? 'You can still create and pay for an ad for this listing. Leads and the Agent Dashboard are the agent\'s: sign in to see them.'}
      </p>
      {state.data ? (
        <p role="status">
          We sent a sign-in link to <strong>{state.data.email}</strong>. It works once, for 30 minutes, and signs in the browser that opens it.
        </p>
      ) : (
        <p>
          <Button variant="secondary" busy={state.isLoading} disabled={state.isLoading} onClick={() => void send({ agentId })}>
            Email me a sign-in link
          </Button>
        </p>
      )}
      {failure && <p role="alert">{failure}</p>}
    </Alert>
  );
}
