import { HOUSING_COMPLIANCE_NOTE } from '@app/contracts';
import { panelStyles as panels } from '@app/ui';
import type { CompleteDraft } from '../draft/completeDraft';
import shared from '../shared/steps.module.css';
import styles from './Targeting.module.css';
import type { ReachState } from './useTargetingPreview';

const numberFormat = new Intl.NumberFormat('en-US');

const REACH_TEXT: Record<Exclude<ReachState, 'ready'>, string> = {
  loading: 'Estimating...',
  error: 'Not available',
  idle: 'Enter a city and state',
};

/** The estimated reach of the location and the housing compliance note (DESIGN §3). */
export function ReachSummary({
  location,
  reach,
  reachState,
}: {
  location: CompleteDraft['targetingLocation'];
  reach: number | undefined;
  reachState: ReachState;
}) {
  return (
    <>
      <div className={`${panels.panel} ${shared.panel} ${styles.reachCard}`}>
        <p className={styles.reachLabel}>Estimated reach</p>
        <p className={styles.reachValue} data-testid="estimated-reach" data-state={reachState} aria-live="polite">
          {reachState === 'ready' && reach !== undefined ? `${numberFormat.format(reach)} people` : REACH_TEXT[reachState === 'ready' ? 'loading' : reachState]}
        </p>
        <p className={styles.reachText}>
          on Facebook and Instagram within {location.radius} miles of {location.city.trim() || 'the city'}
          {location.state ? `, ${location.state}` : ''}
        </p>
      </div>
      <div className={styles.compliance} role="note" aria-label="Housing compliance">
        <span className={styles.complianceIcon} aria-hidden="true">
          ⚖
        </span>
        <p>{HOUSING_COMPLIANCE_NOTE}</p>
      </div>
    </>
  );
}
