import { formatUsd } from '@app/contracts';
import { useId } from 'react';
import type { Listing } from '../draft/wizardTypes';
import { ListingPhoto, primaryPhoto } from '../shared/ListingPhoto';
import { listingFacts } from './listingDisplay';
import loader from './ListingLoader.module.css';

function propertyCount(n: number): string {
  return `${n} ${n === 1 ? 'property' : 'properties'}`;
}

interface GroupProps {
  title: 'Just Listed' | 'Just Sold';
  listings: Listing[];
  selectedId: number | undefined;
  disabled: boolean;
  onChoose: (listing: Listing) => void;
}

/** A group of the agent's MLS listings (Just Listed or Just Sold), each a row that picks it. */
export function ListingGroup({ title, listings, selectedId, disabled, onChoose }: GroupProps) {
  const id = useId();
  return (
    <section className={loader.group} aria-labelledby={`${id}-title`}>
      <div className={loader.groupHead}>
        <h2 id={`${id}-title`} className={loader.groupTitle}>
          {title}
        </h2>
        <span className={loader.count}>{propertyCount(listings.length)}</span>
      </div>
      {listings.length === 0 ? (
        <p className={loader.none}>{title === 'Just Listed' ? 'No active listings right now.' : 'No sold listings yet.'}</p>
      ) : (
        <ul className={loader.list}>
          {listings.map((listing) => (
            <li key={listing.id}>
              <ListingRow listing={listing} selected={listing.id === selectedId} disabled={disabled} onChoose={onChoose} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ListingRow({
  listing,
  selected,
  disabled,
  onChoose,
}: {
  listing: Listing;
  selected: boolean;
  disabled: boolean;
  onChoose: (listing: Listing) => void;
}) {
  const sold = listing.status === 'sold';
  const details = listingFacts(listing);
  return (
    <button
      type="button"
      className={loader.row}
      data-selected={selected || undefined}
      disabled={disabled}
      onClick={() => onChoose(listing)}
    >
      <ListingPhoto src={primaryPhoto(listing)} alt="" className={loader.thumb} />
      <span className={loader.rowMain}>
        <span className={loader.address}>{listing.address}</span>
        <span className={loader.city}>
          {listing.city}, {listing.state}
        </span>
        {details && <span className={loader.facts}>{details}</span>}
      </span>
      <span className={loader.rowSide}>
        <span className={loader.price}>{formatUsd(listing.price)}</span>
        <span className={loader.badge} data-status={sold ? 'sold' : 'active'}>
          {sold ? 'Sold' : 'Active'}
        </span>
        {selected && <span className={loader.selected}>Selected</span>}
      </span>
    </button>
  );
}

