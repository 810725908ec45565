import { useState } from 'react';
import type { ListingResponse, PublicCampaign } from '@app/contracts';
import { formatPrice, formatUsd, manualListingImages } from '@app/contracts/rules';
import { AgentCard } from './AgentCard';
import { Footer } from './Footer';
import { LeadForm } from './LeadForm';
import { addressLine, StatusBadge } from './ListingView';
import { ContactBar } from './ContactBar';
import { FULL_WIDTH_SIZES } from './images';
import { Photo } from './Photo';
import { Placeholder } from './Placeholder';

/** A manually entered listing's page (spec 001 §2, /manual-listing/{mlsId}). */
export function ManualListingView({ data, campaign, formToken, pageUrl }: { data: ListingResponse; campaign: PublicCampaign; formToken: string; pageUrl: string }) {
  const { listing: l, agent, mlsCompliance } = data;
  const images = manualListingImages(l, campaign);
  const [selected, setSelected] = useState(0);
  const [formOpen, setFormOpen] = useState(false);
  const address = addressLine(l);
  const description = campaign?.description || l.description;
  const current = images[selected];
  return (
    <>
      <main className="lp-main lp-manual">
        <div className="lp-manual-media">
          {current ? (
            <div className="lp-manual-large">
              <Photo key={current} url={current} alt={address} status={l.status} sizes={FULL_WIDTH_SIZES} width={1280} height={960} priority={selected === 0} />
            </div>
          ) : (
            <Placeholder status={l.status} className="lp-manual-large" />
          )}
          {images.length > 1 && (
            <ul className="lp-thumbs">
              {images.map((url, i) => (
                <li key={url + i}>
                  <button type="button" className={i === selected ? 'lp-thumb lp-thumb-selected' : 'lp-thumb'} aria-label={`Show photo ${i + 1} of ${images.length}`} aria-pressed={i === selected} onClick={() => setSelected(i)}>
                    <Photo url={url} alt="" status={l.status} sizes="120px" width={160} height={120} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="lp-layout">
          <div className="lp-content">
            <header className="lp-header">
              <p className="lp-price">
                {formatUsd(l.price)}
                <StatusBadge status={l.status} />
              </p>
              <h1 className="lp-address">{address}</h1>
            </header>
            <ul className="lp-tiles">
              {l.bedrooms !== null && (
                <li className="lp-tile-stat">
                  <span className="lp-tile-value">{l.bedrooms}</span>
                  <span className="lp-tile-label">Bedrooms</span>
                </li>
              )}
              {l.bathrooms !== null && (
                <li className="lp-tile-stat">
                  <span className="lp-tile-value">{l.bathrooms}</span>
                  <span className="lp-tile-label">Bathrooms</span>
                </li>
              )}
              {l.squareFeet !== null && (
                <li className="lp-tile-stat">
                  <span className="lp-tile-value">{formatPrice(l.squareFeet)}</span>
                  <span className="lp-tile-label">Sq Ft</span>
                </li>
              )}
            </ul>
            {description && (
              <section className="lp-section" aria-labelledby="about">
                <h2 id="about">About This Property</h2>
                <p className="lp-description">{description}</p>
              </section>
            )}
          </div>
          <AgentCard agent={agent} variant="manual" onContact={() => setFormOpen(true)} />
        </div>
      </main>
      <ContactBar agent={agent} contactLabel="Get More Information" onContact={() => setFormOpen(true)} />
      <Footer compliance={mlsCompliance.brokerage || mlsCompliance.mlsName ? mlsCompliance : null} dataUpdatedAt={null} />
      {formOpen && (
        <LeadForm mlsId={l.mlsId} formToken={formToken} pageUrl={pageUrl} showConsent={false} title="Get More Information" initialTour={false} onClose={() => setFormOpen(false)} />
      )}
    </>
  );
}
