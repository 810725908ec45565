import { Alert, buttonStyles as buttons, panelStyles as panels, Spinner } from '@app/ui';
import { failureMessage } from '../../../store/api';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useGetAgentListingsQuery } from '../creationFlowApi';
import { useMobileAction, type MobileActionSpec } from '../shared/MobileAction';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import { listingChosen, manualDraftChanged, pathChosen, returnedToAgentForm, selectWizard } from '../draft/wizardSlice';
import type { Agent, Listing } from '../draft/wizardTypes';
import { initialAdCopy } from '../draft/adCopyRules';
import { campaignDraftFor } from '../draft/campaignDraft';
import { ListingGroup } from './ListingGroup';
import { AgentChip, NoListingsFound } from './LoaderCards';
import { manualDraftFrom } from './manualDraft';
import { LISTINGS_LOAD_FAILED, LOADING_LABELS } from './messages';
import { SignInLinkOffer } from '../../auth/SignInLinkOffer';
import type { MlsFlow } from './useMlsFlow';
import styles from '../shared/controls.module.css';
import loader from './ListingLoader.module.css';

/** MLS path, part B (spec 000 §2, §4): load the agent's MLS listings and pick the one to boost. */
export function ListingLoader({ agent, flow }: { agent: Agent; flow: MlsFlow }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { listing: selected, listingsLoaded, manualDraft } = useAppSelector(selectWizard);
  const query = useGetAgentListingsQuery(agent.id);
  const listings = query.data ?? [];
  const hasListings = listings.length > 0;
  const loading = flow.mlsLoading || query.isLoading || (query.isFetching && !hasListings);
  // Rows do nothing while listings are (re)loading.
  const disabled = flow.mlsLoading || query.isFetching;

  function choose(listing: Listing) {
    if (disabled) return;
    // "Generating optimized ad copy..." only where the copy is asked for (just-listed with a description).
    dispatch(listingChosen({ listing, campaign: campaignDraftFor(agent, listing, initialAdCopy(listing)) }));
    goToStep(2);
  }

  function enterManually() {
    dispatch(manualDraftChanged({ ...manualDraftFrom(manualDraft, agent), fullName: agent.name, state: agent.state }));
    dispatch(pathChosen('manual'));
  }

  const view: 'loading' | 'error' | 'list' | 'load' | 'empty' = loading
    ? 'loading'
    : query.isError && !hasListings
      ? 'error'
      : hasListings
        ? 'list'
        : listingsLoaded
          ? 'empty'
          : 'load';

  const mobileAction: MobileActionSpec | null =
    view === 'loading'
      ? { label: LOADING_LABELS.listings, disabled: true }
      : view === 'load'
        ? { label: 'Load From MLS', onClick: () => void flow.loadListings(agent) }
        : view === 'empty'
          ? { label: 'Enter Listing Manually', onClick: enterManually }
          : null;
  useMobileAction(mobileAction);

  const active = listings.filter((l) => l.status !== 'sold');
  const sold = listings.filter((l) => l.status === 'sold');

  return (
    <StepFrame
      width="wide"
      title={view === 'list' ? 'Select the listing you want to boost' : 'Your listings'}
      subtitle={
        view === 'list'
          ? 'Active listings get a Just Listed ad, sold ones a Just Sold ad.'
          : view === 'empty'
            ? undefined
            : 'Bring in your listings from the MLS in one click.'
      }
      onBack={() => dispatch(returnedToAgentForm())}
      backDisabled={flow.mlsLoading}
      aside={<AgentChip agent={agent} />}
    >
      {agent.verified && agent.access === 'draft' && <SignInLinkOffer agentId={agent.id} name={agent.name} />}

      {view === 'loading' && (
        <div className={panels.panel}>
          <Spinner label={LOADING_LABELS.listings} />
        </div>
      )}

      {view === 'error' && (
        <div className={panels.panel}>
          <Alert title="Your listings could not be loaded">{failureMessage(query.error) ?? LISTINGS_LOAD_FAILED}</Alert>
          <div className={loader.actions}>
            <button type="button" className={buttons.primary} onClick={() => void query.refetch()}>
              Try Again
            </button>
          </div>
        </div>
      )}

      {view === 'load' && (
        <div className={`${panels.panel} ${loader.loadCard}`}>
          <span className={loader.loadIcon} aria-hidden="true" />
          <h2 className={loader.cardTitle}>Load your MLS listings</h2>
          <p className={loader.cardText}>
            We'll bring in {agent.name}'s active and sold listings with their photos, prices and details.
          </p>
          <button
            type="button"
            className={buttons.primary}
            onClick={() => void flow.loadListings(agent)}
            disabled={flow.mlsLoading}
          >
            {flow.mlsLoading ? 'Loading...' : 'Load From MLS'}
          </button>
        </div>
      )}

      {view === 'empty' && <NoListingsFound onEnterManually={enterManually} />}

      {view === 'list' && (
        <div className={loader.groups} aria-busy={disabled}>
          {query.isFetching && <p className={loader.refreshing} role="status">{LOADING_LABELS.listings}</p>}
          <ListingGroup title="Just Listed" listings={active} selectedId={selected?.id} disabled={disabled} onChoose={choose} />
          <ListingGroup title="Just Sold" listings={sold} selectedId={selected?.id} disabled={disabled} onChoose={choose} />
        </div>
      )}

      {view !== 'empty' && (
        <p className={styles.footnote}>
          Listing not here?{' '}
          <button type="button" className={buttons.link} onClick={enterManually}>
            Enter it manually
          </button>
        </p>
      )}
    </StepFrame>
  );
}
