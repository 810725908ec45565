import { Alert } from '@app/ui';

/**
 * Where the product writes to the agent (DESIGN §3: email only to a verified address): a new email waits for its
 * link to be opened, and emails with content wait until an address is verified; both are said here.
 */
export function EmailNotices({ email, pendingEmail, waitingEmails }: { email: string | null; pendingEmail: string | null; waitingEmails: number }) {
  return (
    <>
      {pendingEmail && (
        <Alert tone="info" testId="pending-email">
          Your emails go to {email ?? 'your current address'} until you open the link we sent to <strong>{pendingEmail}</strong>.
        </Alert>
      )}
      {waitingEmails > 0 && (
        <Alert tone="warning" testId="waiting-emails">
          {waitingEmails === 1 ? '1 email is' : `${waitingEmails} emails are`} waiting: leads and digests are sent only to an email address
          that was confirmed by opening a link we sent to it. They go out as soon as it is.
        </Alert>
      )}
    </>
  );
}
