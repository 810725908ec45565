import type { MlsComplianceInfo } from '@app/contracts';
import { EQUAL_HOUSING_STATEMENT } from '@app/contracts/rules';

function EqualHousingLogo() {
  // The Equal Housing Opportunity mark: a house with an equals sign.
  return (
    <svg className="lp-eho-logo" width="48" height="48" viewBox="0 0 48 48" role="img" aria-label="Equal Housing Opportunity logo">
      <path d="M24 4 2 20h6v24h32V20h6L24 4z" fill="none" stroke="currentColor" strokeWidth="3" />
      <rect x="15" y="24" width="18" height="4" fill="currentColor" />
      <rect x="15" y="32" width="18" height="4" fill="currentColor" />
    </svg>
  );
}

export function EqualHousing() {
  return (
    <div className="lp-eho">
      <EqualHousingLogo />
      <p>
        <strong>Equal Housing Opportunity.</strong> {EQUAL_HOUSING_STATEMENT}
      </p>
    </div>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** "October 28, 2026": how the page writes a date ("Listed", "Data updated"); an unreadable value is shown as it is. */
export function formatListingDate(value: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** The MLS compliance footer (spec §2) and the Equal Housing Opportunity statement. */
export function Footer({ compliance, dataUpdatedAt }: { compliance: MlsComplianceInfo | null; dataUpdatedAt: string | null }) {
  return (
    <footer className="lp-footer">
      {compliance && (
        <div className="lp-compliance">
          {compliance.logo && <img src={compliance.logo} alt={`${compliance.mlsName ?? 'MLS'} logo`} width={120} height={40} loading="lazy" />}
          {compliance.mlsName && <div className="lp-mls-name">{compliance.mlsName}</div>}
          {compliance.brokerage && <p>Listing courtesy of {compliance.brokerage}</p>}
          {compliance.broker && <p>Broker: {compliance.broker}</p>}
          {compliance.disclaimer && <p className="lp-muted">{compliance.disclaimer}</p>}
          {dataUpdatedAt && <p className="lp-muted">Data updated {formatListingDate(dataUpdatedAt)}</p>}
        </div>
      )}
      <EqualHousing />
    </footer>
  );
}
