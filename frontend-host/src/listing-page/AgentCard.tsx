import type { PublicAgent } from '@app/contracts';
import { initials } from '@app/contracts/rules';

/** Spec §2 agent card. `variant="manual"`: phone button, Email Agent, Get More Information. */
export function AgentCard({ agent, variant, onContact, onTour }: { agent: PublicAgent; variant: 'listing' | 'manual'; onContact: () => void; onTour?: () => void }) {
  // Formatted and made a tel: URI by the server (libphonenumber-js): an extension is dialled as one.
  const phone = agent.phoneLink?.display ?? '';
  const tel = agent.phoneLink?.href ?? null;
  return (
    <aside className="lp-card lp-agent" aria-labelledby="agent-name">
      <div className="lp-agent-head">
        {agent.profileImageUrl ? (
          <img className="lp-avatar" src={agent.profileImageUrl} alt={agent.name} width={64} height={64} loading="lazy" />
        ) : (
          <span className="lp-avatar lp-initials" aria-hidden="true">
            {initials(agent.name)}
          </span>
        )}
        <div>
          <h2 id="agent-name" className="lp-agent-name">{agent.name}</h2>
          {agent.brokerage && <div className="lp-muted">{agent.brokerage}</div>}
          {agent.mlsId && <div className="lp-muted">MLS ID: {agent.mlsId}</div>}
        </div>
        {agent.logoUrl && <img className="lp-logo" src={agent.logoUrl} alt={`${agent.brokerage ?? agent.name} logo`} width={96} height={40} loading="lazy" />}
      </div>
      {variant === 'listing' && (
        <ul className="lp-contact">
          {phone && <li>{tel ? <a href={tel}>{phone}</a> : phone}</li>}
          {agent.email && (
            <li>
              <a href={`mailto:${agent.email}`}>{agent.email}</a>
            </li>
          )}
        </ul>
      )}
      <div className="lp-actions">
        {variant === 'listing' ? (
          <>
            {tel && (
              <a className="lp-button" href={tel}>
                Call
              </a>
            )}
            <button type="button" className="lp-button lp-primary" onClick={onContact}>
              Contact Agent
            </button>
            {onTour && (
              <button type="button" className="lp-button" onClick={onTour}>
                Schedule a Tour
              </button>
            )}
          </>
        ) : (
          <>
            {tel && (
              <a className="lp-button" href={tel}>
                {phone}
              </a>
            )}
            {agent.email && (
              <a className="lp-button" href={`mailto:${agent.email}`}>
                Email Agent
              </a>
            )}
            <button type="button" className="lp-button lp-primary" onClick={onContact}>
              Get More Information
            </button>
          </>
        )}
      </div>
    </aside>
  );
}
