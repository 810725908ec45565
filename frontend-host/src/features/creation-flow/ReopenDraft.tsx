import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { buttonStyles as buttons, Spinner } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { useGetCampaignForWizardQuery } from '../autopilot/autopilotApi';
import { reopenedDraft } from './draft/reopenDraft';
import { draftReopened } from './draft/wizardSlice';
import { useGoToStep } from './draft/wizardNavigation';

/** `/?edit={campaignId}`: a saved draft (autopilot's Edit link) opens on the wizard's Customize step. */
export default function ReopenDraft({ campaignId }: { campaignId: number }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { data, error } = useGetCampaignForWizardQuery(campaignId);

  useEffect(() => {
    if (!data) return;
    const { path, campaign } = reopenedDraft(data);
    dispatch(draftReopened({ path, agent: data.agent, listing: data.listing, campaign }));
    goToStep(3, { replace: true });
  }, [data, dispatch, goToStep]);

  if (error) {
    return (
      <PageShell title="This ad cannot be edited">
        <p>{(isApiError(error) && error.serverMessage) || 'Something went wrong. Please try again.'}</p>
        <Link className={buttons.primary} to="/dashboard">
          Go to Dashboard
        </Link>
      </PageShell>
    );
  }
  return <Spinner fullPage label="Opening your ad..." />;
}
