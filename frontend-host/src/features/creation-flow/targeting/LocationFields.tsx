import { LIMITS, RADIUS_OPTIONS, type RadiusMiles } from '@app/contracts';
import { SelectField, TextField, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import type { CompleteDraft } from '../draft/completeDraft';
import { StateOptions } from '../shared/StateOptions';
import ui from '../shared/controls.module.css';
import shared from '../shared/steps.module.css';
import styles from './Targeting.module.css';

type Location = CompleteDraft['targetingLocation'];

/** Where the ad runs: city, state and radius (housing ads reach at least 15 miles around). */
export function LocationFields({
  id,
  location,
  missing,
  attempted,
  onChange,
}: {
  id: string;
  location: Location;
  missing: { city: boolean; state: boolean };
  attempted: boolean;
  onChange: (changes: Partial<Location>) => void;
}) {
  return (
    <fieldset className={`${panels.panel} ${shared.panel}`}>
      <legend className={shared.panelTitle}>Location</legend>
      <div className={`${ui.row} ${styles.locationRow}`}>
        <TextField
          id={`${id}-city`}
          label="City"
          error={attempted && missing.city ? 'City is required' : ''}
          announce="polite"
          value={location.city}
          maxLength={LIMITS.city}
          autoComplete="address-level2"
          onChange={(e) => onChange({ city: e.target.value })}
        />
        <SelectField
          id={`${id}-state`}
          label="State"
          error={attempted && missing.state ? 'State is required' : ''}
          announce="polite"
          value={location.state}
          onChange={(e) => onChange({ state: e.target.value })}
        >
          <StateOptions />
        </SelectField>
        <SelectField
          id={`${id}-radius`}
          label="Radius"
          describedBy={`${id}-radius-hint`}
          value={location.radius}
          onChange={(e) => onChange({ radius: Number(e.target.value) as RadiusMiles })}
        >
          {RADIUS_OPTIONS.map((miles) => (
            <option key={miles} value={miles}>
              {miles} miles
            </option>
          ))}
        </SelectField>
      </div>
      <p id={`${id}-radius-hint`} className={fields.hint}>
        Housing ads reach everyone within at least 15 miles of the location.
      </p>
    </fieldset>
  );
}
