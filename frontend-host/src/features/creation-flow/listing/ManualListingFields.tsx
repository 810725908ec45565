import { SelectField, TextField, fieldStyles as fields } from '@app/ui';
import type { InputHTMLAttributes, RefObject } from 'react';
import type { ManualListingDraft } from '../draft/wizardTypes';
import { StateOptions } from '../shared/StateOptions';
import styles from '../shared/controls.module.css';
import form from './ManualListingForm.module.css';
import type { ManualErrors, ManualFieldName, ManualFieldRefs } from './useManualListing';

interface Props {
  id: string;
  values: ManualListingDraft;
  errors: ManualErrors;
  set: (field: keyof ManualListingDraft, value: string) => void;
  fieldRefs: RefObject<ManualFieldRefs>;
}

/** The manual listing form's fields (spec 000 §5): about you, then the property and its status. */
export function ManualListingFields({ id, values, errors, set, fieldRefs }: Props) {
  const remember = (name: ManualFieldName) => (el: HTMLInputElement | HTMLSelectElement | null) => {
    fieldRefs.current[name] = el;
  };
  // A text field of the form: its id, name, value, message (a polite live region, as the user types) and ref.
  const text = (name: Exclude<ManualFieldName, 'state' | 'status'>, label: string, input: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      error={errors[name]}
      announce="polite"
      ref={remember(name)}
      value={values[name]}
      onChange={(e) => set(name, e.target.value)}
      {...input}
    />
  );

  return (
    <>
      <fieldset className={styles.section}>
        <legend className={styles.sectionTitle}>About you</legend>
        {text('fullName', 'Full Name', { autoComplete: 'name' })}
      </fieldset>

      <fieldset className={styles.section}>
        <legend className={styles.sectionTitle}>The property</legend>
        {text('address', 'Property Address', { autoComplete: 'street-address', placeholder: '123 Main Street' })}
        <div className={`${styles.row} ${styles.rowCity}`}>
          {text('city', 'City', { autoComplete: 'address-level2' })}
          <SelectField
            id={`${id}-state`}
            name="state"
            label="State"
            error={errors.state}
            announce="polite"
            ref={remember('state')}
            autoComplete="address-level1"
            value={values.state}
            onChange={(e) => set('state', e.target.value)}
          >
            <StateOptions />
          </SelectField>
        </div>
        <TextField
          id={`${id}-price`}
          name="price"
          label="Listing Price"
          error={errors.price}
          announce="polite"
          ref={remember('price')}
          adornment="$"
          inputMode="decimal"
          placeholder="450,000"
          value={values.price}
          onChange={(e) => set('price', e.target.value)}
        />
        <div className={`${styles.row} ${styles.row3}`}>
          {text('bedrooms', 'Bedrooms', { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
          {text('bathrooms', 'Bathrooms', { inputMode: 'decimal' })}
          {text('squareFeet', 'Square Feet', { type: 'number', min: 1, step: 1, inputMode: 'numeric' })}
        </div>
        <fieldset className={form.status} aria-describedby={`${id}-status-error`}>
          <legend className={fields.label}>Listing Status</legend>
          <div className={form.statusOptions}>
            {(['active', 'sold'] as const).map((status) => (
              <label key={status} className={form.statusOption}>
                <input
                  type="radio"
                  name="status"
                  value={status}
                  checked={values.status === status}
                  onChange={() => set('status', status)}
                  ref={status === 'active' ? remember('status') : undefined}
                />
                <span>
                  <strong>{status === 'active' ? 'Active' : 'Sold'}</strong>
                  <small>{status === 'active' ? 'Promote it with a Just Listed ad' : 'Show it off with a Just Sold ad'}</small>
                </span>
              </label>
            ))}
          </div>
          <p id={`${id}-status-error`} className={fields.fieldError} aria-live="polite">
            {errors.status}
          </p>
        </fieldset>
      </fieldset>
    </>
  );
}
