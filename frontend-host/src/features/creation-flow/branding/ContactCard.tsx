import { formatPhone, initials } from '@app/contracts';
import { useState } from 'react';
import { thumbnailUrl } from '../shared/ListingPhoto';
import styles from './Branding.module.css';

export interface ContactCardModel {
  name: string;
  email: string;
  phone: string;
  brokerage: string;
  mlsId: string | null;
  profileImageUrl: string | null;
  logoUrl: string | null;
}

/**
 * The agent's contact card as buyers will see it on the property page (spec 000 §2 step 4): photo or
 * initials, name, MLS ID, brokerage logo, phone and email. Its buttons are shown disabled: this is a preview.
 */
export function ContactCard({ card }: { card: ContactCardModel }) {
  const name = card.name.trim();
  const phone = formatPhone(card.phone.trim());
  const email = card.email.trim();
  const brokerage = card.brokerage.trim();
  return (
    <article className={styles.card} aria-label="Contact card preview" data-testid="contact-card">
      <div className={styles.cardTop}>
        <Portrait url={card.profileImageUrl} name={name} />
        <div className={styles.cardWho}>
          <p className={styles.cardEyebrow}>Listing agent</p>
          <p className={styles.cardName}>{name || 'Your name'}</p>
          {brokerage && <p className={styles.cardBrokerage}>{brokerage}</p>}
          {card.mlsId && <p className={styles.cardMls}>MLS ID {card.mlsId}</p>}
        </div>
        {card.logoUrl && <Logo url={card.logoUrl} brokerage={brokerage} />}
      </div>
      <ul className={styles.cardLines}>
        <li>
          <span className={styles.cardIcon} aria-hidden="true">
            ☎
          </span>
          {phone ? <span>{phone}</span> : <span className={styles.cardMissing}>Add your phone</span>}
        </li>
        <li>
          <span className={styles.cardIcon} aria-hidden="true">
            ✉
          </span>
          {email ? <span className={styles.cardEmail}>{email}</span> : <span className={styles.cardMissing}>Add your email</span>}
        </li>
      </ul>
      <div className={styles.cardButtons}>
        <button type="button" className={styles.cardPrimary} disabled>
          Contact Agent
        </button>
        <button type="button" className={styles.cardSecondary} disabled>
          Schedule a Tour
        </button>
      </div>
    </article>
  );
}

function Portrait({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (url && failed !== url) {
    return <img className={styles.portrait} src={thumbnailUrl(url)} alt={`Photo of ${name || 'the agent'}`} onError={() => setFailed(url)} />;
  }
  return (
    <span className={`${styles.portrait} ${styles.portraitInitials}`} role="img" aria-label={`${name || 'Agent'} (initials)`}>
      {initials(name) || '?'}
    </span>
  );
}

function Logo({ url, brokerage }: { url: string; brokerage: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img className={styles.logo} src={thumbnailUrl(url)} alt={brokerage ? `${brokerage} logo` : 'Brokerage logo'} onError={() => setFailed(true)} />
  );
}
