import { AGENT_FORM_MISSING_TOAST, agentFormSchema, fieldErrors, manualListingFormSchema, manualMlsId } from '@app/contracts';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorText, failureMessage, isApiError } from '../../../store/api';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useCreateAgentMutation, useCreateListingMutation } from '../creationFlowApi';
import { useMobileAction } from '../shared/MobileAction';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import {
  agentSaved,
  listingChosen,
  manualDraftChanged,
  manualDraftPatched,
  returnedToChooser,
  selectWizard,
} from '../draft/wizardSlice';
import { buttonStyles as buttons, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import type { Agent, Listing, ManualListingDraft } from '../draft/wizardTypes';
import { initialAdCopy } from '../draft/adCopyRules';
import { campaignDraftFor } from '../draft/campaignDraft';
import { manualDraftFrom, manualDraftFromListing } from './manualDraft';
import { TOASTS } from './messages';
import { PhotoUploader } from './PhotoUploader';
import { StateOptions } from '../shared/StateOptions';
import styles from '../shared/controls.module.css';
import form from './ManualListingForm.module.css';

export const MANUAL_FORM_ID = 'manual-listing-form';

const FIELDS = ['fullName', 'address', 'city', 'state', 'price', 'bedrooms', 'bathrooms', 'squareFeet', 'status'] as const;
type FieldName = (typeof FIELDS)[number];
type Errors = Partial<Record<FieldName | 'images', string>>;

/** Manual path (spec 000 §2, §5): the listing form, then agent (if needed) and listing are saved. */
export function ManualListingForm() {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { toast } = useToast();
  const { agent, manualDraft, listing } = useAppSelector(selectWizard);
  const [createAgent] = useCreateAgentMutation();
  const [createListing] = useCreateListingMutation();
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const fieldRefs = useRef<Partial<Record<FieldName, HTMLInputElement | HTMLSelectElement | null>>>({});
  const id = useId();

  // What was typed before; else the listing saved from this form (back from step 2); else the defaults.
  const values: ManualListingDraft =
    manualDraft ??
    (listing && agent && listing.mlsId?.startsWith('MANUAL-')
      ? manualDraftFromListing(listing, agent.name)
      : manualDraftFrom(null, agent));

  useEffect(() => {
    if (!manualDraft) dispatch(manualDraftChanged(values));
  }, [dispatch, manualDraft, values]);

  const errors: Errors = { ...serverErrors, ...(attempted ? validate(values) : {}) };

  const set = (field: keyof ManualListingDraft, value: string) => {
    dispatch(manualDraftPatched({ [field]: value }));
    if (serverErrors[field as FieldName]) setServerErrors(({ [field as FieldName]: _, ...rest }) => rest);
  };
  // Upload slots are for a session that owns an agent: the agent is saved (name and state) before the first photo.
  const agentPending = useRef<Promise<Agent | null> | null>(null);
  const ensureAgent = useCallback(async (): Promise<boolean> => {
    if (agent) return true;
    const parsed = agentFormSchema.safeParse({ name: values.fullName, state: values.state });
    if (!parsed.success) {
      toast({ ...AGENT_FORM_MISSING_TOAST, variant: 'destructive' });
      fieldRefs.current[parsed.error.issues.some((i) => i.path[0] === 'name') ? 'fullName' : 'state']?.focus();
      return false;
    }
    agentPending.current ??= createAgent({ name: parsed.data.name, state: parsed.data.state, manualEntry: true, brokerage: null, phone: null, email: null })
      .unwrap()
      .then(
        (saved) => {
          dispatch(agentSaved(saved));
          return saved;
        },
        (error: unknown) => {
          toast(TOASTS.agentSaveError(isApiError(error) ? (error.serverMessage ?? error.message) : errorText(error)));
          return null;
        },
      )
      .finally(() => {
        agentPending.current = null;
      });
    return (await agentPending.current) !== null;
  }, [agent, values.fullName, values.state, createAgent, dispatch, toast]);

  const onImagesChange = useCallback((images: string[]) => dispatch(manualDraftPatched({ images })), [dispatch]);

  const submitLabel = saving ? 'Saving...' : uploading ? 'Uploading photos...' : 'Continue to Ad Creation';
  useMobileAction({ label: submitLabel, form: MANUAL_FORM_ID, disabled: saving || uploading });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || uploading) return;
    setAttempted(true);
    setServerErrors({});
    const parsed = manualListingFormSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      const first = FIELDS.find((f) => found[f]);
      if (first) fieldRefs.current[first]?.focus();
      return;
    }
    const v = parsed.data;
    setSaving(true);
    try {
      let owner: Agent | null = agent;
      if (!owner) {
        try {
          owner = await createAgent({
            name: v.fullName,
            state: v.state,
            manualEntry: true,
            brokerage: null,
            phone: null,
            email: null,
          }).unwrap();
        } catch (error) {
          toast(TOASTS.agentSaveError(failureMessage(error)));
          return;
        }
        dispatch(agentSaved(owner));
      }

      let saved: Listing;
      try {
        const images = v.images ?? [];
        saved = await createListing({
          agentId: owner.id,
          address: v.address,
          city: v.city,
          state: v.state,
          price: v.price,
          bedrooms: v.bedrooms,
          bathrooms: v.bathrooms,
          squareFeet: v.squareFeet,
          status: v.status,
          imageUrl: images[0] ?? null,
          images,
          mlsId: manualMlsId(),
        }).unwrap();
      } catch (error) {
        if (isApiError(error) && error.fields) setServerErrors(formErrorsFromServer(error.fields));
        toast(TOASTS.listingSaveError);
        return;
      }

      toast(TOASTS.listingSaved);
      dispatch(listingChosen({ listing: saved, campaign: campaignDraftFor(owner, saved, initialAdCopy(saved)) }));
      goToStep(2);
    } finally {
      setSaving(false);
    }
  }

  const fieldProps = (name: FieldName) => ({
    id: `${id}-${name}`,
    name,
    ref: (el: HTMLInputElement | HTMLSelectElement | null) => {
      fieldRefs.current[name] = el;
    },
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': `${id}-${name}-error`,
  });

  return (
    <StepFrame
      title="Enter Your Listing Information"
      subtitle="A few details and some photos are all your ad needs. It takes about a minute."
      onBack={() => dispatch(returnedToChooser())}
      backDisabled={saving}
    >
      <div className={panels.panel}>
        <form id={MANUAL_FORM_ID} className={styles.form} noValidate onSubmit={onSubmit} aria-busy={saving}>
          <fieldset className={styles.section}>
            <legend className={styles.sectionTitle}>About you</legend>
            <Field label="Full Name" htmlFor={`${id}-fullName`} error={errors.fullName} errorId={`${id}-fullName-error`}>
              <input
                {...fieldProps('fullName')}
                className={fields.input}
                autoComplete="name"
                value={values.fullName}
                onChange={(e) => set('fullName', e.target.value)}
              />
            </Field>
          </fieldset>

          <fieldset className={styles.section}>
            <legend className={styles.sectionTitle}>The property</legend>
            <Field label="Property Address" htmlFor={`${id}-address`} error={errors.address} errorId={`${id}-address-error`}>
              <input
                {...fieldProps('address')}
                className={fields.input}
                autoComplete="street-address"
                placeholder="123 Main Street"
                value={values.address}
                onChange={(e) => set('address', e.target.value)}
              />
            </Field>
            <div className={`${styles.row} ${styles.rowCity}`}>
              <Field label="City" htmlFor={`${id}-city`} error={errors.city} errorId={`${id}-city-error`}>
                <input
                  {...fieldProps('city')}
                  className={fields.input}
                  autoComplete="address-level2"
                  value={values.city}
                  onChange={(e) => set('city', e.target.value)}
                />
              </Field>
              <Field label="State" htmlFor={`${id}-state`} error={errors.state} errorId={`${id}-state-error`}>
                <select
                  {...fieldProps('state')}
                  className={fields.select}
                  autoComplete="address-level1"
                  value={values.state}
                  onChange={(e) => set('state', e.target.value)}
                >
                  <StateOptions />
                </select>
              </Field>
            </div>
            <Field label="Listing Price" htmlFor={`${id}-price`} error={errors.price} errorId={`${id}-price-error`}>
              <div className={fields.adorned}>
                <span className={fields.adornment} aria-hidden="true">
                  $
                </span>
                <input
                  {...fieldProps('price')}
                  className={fields.input}
                  inputMode="decimal"
                  placeholder="450,000"
                  value={values.price}
                  onChange={(e) => set('price', e.target.value)}
                />
              </div>
            </Field>
            <div className={`${styles.row} ${styles.row3}`}>
              <Field label="Bedrooms" htmlFor={`${id}-bedrooms`} error={errors.bedrooms} errorId={`${id}-bedrooms-error`}>
                <input
                  {...fieldProps('bedrooms')}
                  className={fields.input}
                  type="number"
                  min={0}
                  step={1}
                  inputMode="numeric"
                  value={values.bedrooms}
                  onChange={(e) => set('bedrooms', e.target.value)}
                />
              </Field>
              <Field label="Bathrooms" htmlFor={`${id}-bathrooms`} error={errors.bathrooms} errorId={`${id}-bathrooms-error`}>
                <input
                  {...fieldProps('bathrooms')}
                  className={fields.input}
                  inputMode="decimal"
                  value={values.bathrooms}
                  onChange={(e) => set('bathrooms', e.target.value)}
                />
              </Field>
              <Field label="Square Feet" htmlFor={`${id}-squareFeet`} error={errors.squareFeet} errorId={`${id}-squareFeet-error`}>
                <input
                  {...fieldProps('squareFeet')}
                  className={fields.input}
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  value={values.squareFeet}
                  onChange={(e) => set('squareFeet', e.target.value)}
                />
              </Field>
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
                      ref={
                        status === 'active'
                          ? (el) => {
                              fieldRefs.current.status = el;
                            }
                          : undefined
                      }
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

function Field({
  label,
  htmlFor,
  error,
  errorId,
  children,
}: {
  label: string;
  htmlFor: string;
  error: string | undefined;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div className={fields.field}>
      <label className={fields.label} htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      <p id={errorId} className={fields.fieldError} aria-live="polite">
        {error}
      </p>
    </div>
  );
}

function validate(values: ManualListingDraft): Errors {
  const result = manualListingFormSchema.safeParse(values);
  if (result.success) return {};
  const found = fieldErrors(result.error);
  const out: Errors = {};
  for (const f of FIELDS) if (found[f]) out[f] = found[f];
  return out;
}

/** The server's 400 `fields` ({ price: "…", "images.0": "…" }) on the form's own fields. */
function formErrorsFromServer(fields: Record<string, unknown>): Errors {
  const out: Errors = {};
  for (const [key, message] of Object.entries(fields)) {
    if (typeof message !== 'string') continue;
    const field = key.split('.')[0];
    if ((FIELDS as readonly string[]).includes(field)) out[field as FieldName] ??= message;
    else if (field === 'images' || field === 'imageUrl') out.images ??= message;
  }
  return out;
}
