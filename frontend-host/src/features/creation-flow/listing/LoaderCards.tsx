import { initials } from '@app/contracts';
import { buttonStyles as buttons, panelStyles as panels } from '@app/ui';
import type { Agent } from '../draft/wizardTypes';
import { useLeadGenerationUrl } from './leadGeneration';
import loader from './ListingLoader.module.css';

/** The agent the listings are loaded for: initials, name, state and MLS ID. */
export function AgentChip({ agent }: { agent: Agent }) {
  return (
    <div className={loader.agent}>
      <span className={loader.avatar} aria-hidden="true">
        {initials(agent.name)}
      </span>
      <span className={loader.agentText}>
        <strong>{agent.name}</strong>
        <small>
          {agent.state}
          {agent.mlsId ? ` · MLS ID ${agent.mlsId}` : ''}
        </small>
      </span>
    </div>
  );
}

/** No listings in the MLS: enter one by hand, and an offer of listing leads. */
export function NoListingsFound({ onEnterManually }: { onEnterManually: () => void }) {
  const leadGenerationUrl = useLeadGenerationUrl();
  return (
    <>
      <div className={`${panels.panel} ${loader.loadCard}`}>
        <span className={loader.emptyIcon} aria-hidden="true" />
        <h2 className={loader.cardTitle}>No Listings Found</h2>
        <p className={loader.cardText}>
          There are no active or sold listings for you in the MLS right now. Enter your listing's details and we'll
          build the ad from them.
        </p>
        <button type="button" className={buttons.primary} onClick={onEnterManually}>
          Enter Listing Manually
        </button>
      </div>
      <aside className={loader.leads} aria-labelledby="lead-generation-title">
        <div>
          <h2 id="lead-generation-title" className={loader.leadsTitle}>
            Need more listing leads? We can help!
          </h2>
          <p className={loader.leadsText}>Our lead generation services put you in front of homeowners ready to sell.</p>
        </div>
        <a className={loader.leadsLink} href={leadGenerationUrl} target="_blank" rel="noopener noreferrer">
          Learn More →
        </a>
      </aside>
    </>
  );
}
