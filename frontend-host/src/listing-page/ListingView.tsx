import { useState, type ReactNode } from 'react';
import type { ListingResponse } from '@app/contracts';
import { bboxParam, formatAcres, formatPrice, formatUsd, mapBoundingBox, pricePerSqft, externalMapUrl } from '@app/contracts/rules';
import { AgentCard } from './AgentCard';
import { ContactBar } from './ContactBar';
import { Footer, formatListingDate } from './Footer';
import { Gallery } from './Gallery';
import { LeadForm } from './LeadForm';
import { PhotoGrid } from './PhotoGrid';

export function addressLine(l: ListingResponse['listing']): string {
  return [l.address, l.city, [l.state, l.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}

const listText = (xs: string[]) => (xs.length ? xs.join(', ') : null);

function Facts({ rows }: { rows: [string, ReactNode | null | undefined][] }) {
  const present = rows.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (!present.length) return <p className="lp-muted">Not provided.</p>;
  return (
    <dl className="lp-facts">
      {present.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="lp-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export const isSold = (status: string) => status.trim().toLowerCase() === 'sold';

/** "Sold" beside the price of a sold home (spec: the placeholder says just sold; the page says it too). */
export function StatusBadge({ status }: { status: string }) {
  return isSold(status) ? <span className="lp-badge lp-badge-sold">Sold</span> : null;
}

/** The public listing page (spec 001 §2, /listing/{mlsId}). */
/**
 * The OpenStreetMap embed. It is far below the first screen and brings its own page, scripts and tiles,
 * so it is only loaded once the buyer scrolls near it: entry-client.tsx sets `src` from `data-src` then.
 * Without JavaScript the <noscript> copy loads as usual.
 */
function MapEmbed({ title, src }: { title: string; src: string }) {
  return (
    <>
      <iframe className="lp-map" title={title} width={800} height={320} data-src={src} />
      <noscript>
        <style>{'.lp-map[data-src]{display:none}'}</style>
        <iframe className="lp-map" title={title} loading="lazy" width={800} height={320} src={src} />
      </noscript>
    </>
  );
}

export function ListingView({ data, formToken, pageUrl }: { data: ListingResponse; formToken: string; pageUrl: string }) {
  const { listing: l, agent, mlsCompliance } = data;
  const [gallery, setGallery] = useState<number | null>(null);
  const [form, setForm] = useState<null | { tour: boolean }>(null);
  const address = addressLine(l);
  const perSqft = pricePerSqft(l.price, l.squareFeet);
  const tiles: [string, string | number | null][] = [
    ['Price per sq ft', perSqft === null ? null : formatUsd(perSqft)],
    ['Built in', l.yearBuilt],
    ['Property size', l.squareFeet ? `${formatPrice(l.squareFeet)} sq ft` : null],
    ['Garages', l.garageSpaces],
    ['Bedrooms', l.bedrooms],
    ['Bathrooms', l.bathrooms],
  ];
  const lot = l.lotSizeSqFt ? `${formatAcres(l.lotSizeSqFt)} acres (${formatPrice(l.lotSizeSqFt)} sq ft)` : l.lotSize ? `${l.lotSize} acres` : null;
  const hasPoint = l.latitude !== null && l.longitude !== null;
  const sold = isSold(l.status);

  return (
    <>
      <main className="lp-main">
        <PhotoGrid photos={l.photos} status={l.status} alt={address} onOpen={setGallery} />
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
              {tiles
                .filter(([, v]) => v !== null && v !== undefined)
                .map(([label, value]) => (
                  <li key={label} className="lp-tile-stat">
                    <span className="lp-tile-value">{value}</span>
                    <span className="lp-tile-label">{label}</span>
                  </li>
                ))}
            </ul>
            <Section id="about" title="About This Property">
              <p className="lp-description">{l.description || 'No description provided.'}</p>
            </Section>
            <Section id="overview" title="Overview">
              <Facts
                rows={[
                  ['Property type', l.propertyType],
                  ['Year built', l.yearBuilt],
                  ['Lot size', lot],
                  ['MLS #', l.mlsId],
                  ['Listed', l.listDate ? formatListingDate(l.listDate) : null],
                  ['Days on market', l.daysOnMarket],
                ]}
              />
            </Section>
            <Section id="features" title="Property Features">
              <Facts
                rows={[
                  ['Heating', listText(l.heating)],
                  ['Cooling', listText(l.cooling)],
                  ['Appliances', listText(l.appliances)],
                  ['Interior features', listText(l.interiorFeatures)],
                  ['Exterior features', listText(l.exteriorFeatures)],
                  ['Fireplace', l.fireplace === null ? null : l.fireplace ? 'Yes' : 'No'],
                  ['Parking', listText(l.parkingFeatures)],
                  ['HOA fee', l.hoaFee === null ? null : `${formatUsd(l.hoaFee)} per year`],
                  ['Utilities', listText(l.utilities)],
                ]}
              />
            </Section>
            <Section id="schools" title="Schools">
              <Facts
                rows={[
                  ['Elementary', l.elementarySchool],
                  ['Middle', l.middleSchool],
                  ['High', l.highSchool],
                  ['District', l.schoolDistrict],
                ]}
              />
            </Section>
            <Section id="location" title="Location">
              {hasPoint ? (
                <>
                  <MapEmbed
                    title={`Map of ${address}`}
                    src={`https://www.openstreetmap.org/export/embed.html?bbox=${bboxParam(mapBoundingBox(l.latitude!, l.longitude!))}&layer=mapnik&marker=${l.latitude},${l.longitude}`}
                  />
                  <p>
                    <a href={externalMapUrl(l.latitude!, l.longitude!)} target="_blank" rel="noopener noreferrer">
                      View on OpenStreetMap
                    </a>
                  </p>
                </>
              ) : (
                <p>{address}</p>
              )}
            </Section>
          </div>
          {/* A sold home is not toured. */}
          <AgentCard agent={agent} variant="listing" onContact={() => setForm({ tour: false })} onTour={sold ? undefined : () => setForm({ tour: true })} />
        </div>
      </main>
      <ContactBar agent={agent} contactLabel="Contact Agent" onContact={() => setForm({ tour: false })} />
      <Footer compliance={mlsCompliance} dataUpdatedAt={l.dataUpdatedAt} />
      {gallery !== null && <Gallery photos={l.photos} start={gallery} alt={address} onClose={() => setGallery(null)} />}
      {form && (
        <LeadForm
          mlsId={l.mlsId}
          formToken={formToken}
          pageUrl={pageUrl}
          showConsent
          title={form.tour ? 'Schedule a Tour' : 'Contact Agent'}
          initialTour={form.tour}
          onClose={() => setForm(null)}
        />
      )}
    </>
  );
}
