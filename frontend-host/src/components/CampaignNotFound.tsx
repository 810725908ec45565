import { buttonClass, EmptyState } from '@app/ui';
import { Link } from 'react-router-dom';
import { isApiError } from '../store/api';
import { AlertIcon, LockIcon } from './Icons';

/** Spec 000 §2: a checkout (or success screen) for a campaign that is absent. */
export const CAMPAIGN_NOT_FOUND = {
  title: 'Campaign Not Found',
  description: 'The requested campaign could not be found.',
} as const;

/** Shown under "Campaign Not Found": a checkout started in another browser also answers 404 here. */
export const CAMPAIGN_NOT_FOUND_ELSEWHERE =
  'Started this checkout in another browser? A campaign made without an account stays with the browser that created it: open the link there, or log in to see your campaigns.';

/** The campaign exists but this browser may not see it (DESIGN §3: the wizard binds it to the session that created it). */
export const CAMPAIGN_IN_OTHER_BROWSER = {
  title: 'This checkout belongs to another browser',
  description:
    'A campaign started without an account stays with the browser that created it. Open this link in that browser, or log in to see your campaigns.',
} as const;

/** True when the server refused the campaign to this session (403, or the agent's login is required). */
export function isOtherBrowserRefusal(error: unknown): boolean {
  return isApiError(error) && (error.status === 403 || error.status === 401 || error.code === 'agents.login_required');
}

/** The checkout's and the success screen's answer when the campaign cannot be shown here. */
export function CampaignNotFound({ otherBrowser = false }: { otherBrowser?: boolean }) {
  // Someone else's campaign answers 404 like a missing one (its id reveals nothing), so a checkout opened in
  // another browser may land on "not found" too: that text says how that happens. Both offer login.
  const text = otherBrowser ? CAMPAIGN_IN_OTHER_BROWSER : CAMPAIGN_NOT_FOUND;
  return (
    <EmptyState
      tone="warning"
      icon={otherBrowser ? <LockIcon /> : <AlertIcon />}
      title={text.title}
      actions={
        <>
          <Link to="/login" className={buttonClass('primary')}>
            Log in
          </Link>
          <Link to="/" className={buttonClass('secondary')}>
            Create a campaign
          </Link>
        </>
      }
    >
      <p>{text.description}</p>
      {!otherBrowser && <p>{CAMPAIGN_NOT_FOUND_ELSEWHERE}</p>}
    </EmptyState>
  );
}
