import type { PublicAgent } from '@app/contracts';

/**
 * Phones only (CSS): Call and the page's contact button, fixed at the bottom of the screen, so a buyer
 * never scrolls screens down to reach the agent. The page keeps room for it at its end (it covers no
 * content) and it sits above the home indicator (safe-area insets). The agent card's buttons are the same.
 */
export function ContactBar({ agent, contactLabel, onContact }: { agent: PublicAgent; contactLabel: string; onContact: () => void }) {
  const tel = agent.phoneLink?.href ?? null;
  return (
    <div className="lp-contactbar" role="region" aria-label="Contact the agent" data-testid="contact-bar">
      {tel && (
        <a className="lp-button" href={tel}>
          Call
        </a>
      )}
      <button type="button" className="lp-button lp-primary" onClick={onContact}>
        {contactLabel}
      </button>
    </div>
  );
}
