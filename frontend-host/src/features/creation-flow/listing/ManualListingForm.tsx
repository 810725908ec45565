import { useId } from 'react';
import { useAppDispatch } from '../../../store/hooks';
import { useMobileAction } from '../shared/MobileAction';
import { StepFrame } from '../shared/StepFrame';
import { returnedToChooser } from '../draft/wizardSlice';
import { buttonStyles as buttons, panelStyles as panels } from '@app/ui';
import { ManualListingFields } from './ManualListingFields';
import { PhotoUploader } from './PhotoUploader';
import { useManualListing } from './useManualListing';
import styles from '../shared/controls.module.css';

export const MANUAL_FORM_ID = 'manual-listing-form';

/** Manual path (spec 000 §2, §5): the listing form, then agent (if needed) and listing are saved. */
export function ManualListingForm() {
  const dispatch = useAppDispatch();
  const id = useId();
  const { values, errors, set, fieldRefs, saving, uploading, setUploading, ensureAgent, onImagesChange, onSubmit } = useManualListing();

  const submitLabel = saving ? 'Saving...' : uploading ? 'Uploading photos...' : 'Continue to Ad Creation';
  useMobileAction({ label: submitLabel, form: MANUAL_FORM_ID, disabled: saving || uploading });

  return (
    <StepFrame
      title="Enter Your Listing Information"
      subtitle="A few details and some photos are all your ad needs. It takes about a minute."
      onBack={() => dispatch(returnedToChooser())}
      backDisabled={saving}
    >
      <div className={panels.panel}>
        <form id={MANUAL_FORM_ID} className={styles.form} noValidate onSubmit={onSubmit} aria-busy={saving}>
          <ManualListingFields id={id} values={values} errors={errors} set={set} fieldRefs={fieldRefs} />

          <fieldset className={styles.section}>
            <legend className={styles.sectionTitle}>Photos</legend>
            <PhotoUploader
              images={values.images}
              onImagesChange={onImagesChange}
              onBusyChange={setUploading}
              error={errors.images}
              beforeUpload={ensureAgent}
            />
          </fieldset>

          <button type="submit" className={`${buttons.primary} ${buttons.block}`} disabled={saving || uploading}>
            {saving && <span className={buttons.spinner} aria-hidden="true" />}
            {submitLabel}
          </button>
        </form>
      </div>
    </StepFrame>
  );
}
