import { LIMITS } from '@app/contracts';
import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { TextField, buttonStyles as buttons, panelStyles as panels } from '@app/ui';
import { errorText } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useUpdateAgentBrandingMutation } from '../creationFlowApi';
import { useMobileAction } from '../shared/MobileAction';
import { SplitLayout } from '../shared/preview/PreviewLayout';
import type { CompleteDraft } from '../draft/completeDraft';
import { ListingChip } from '../shared/ListingChip';
import { AGENT_TOASTS } from '../shared/messages';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import { agentBrandingDrafted, agentSaved } from '../draft/wizardSlice';
import type { Agent, Listing } from '../draft/wizardTypes';
import ui from '../shared/controls.module.css';
import shared from '../shared/steps.module.css';
import { bodyOf, formFrom, validate, type BrandingErrors, type BrandingForm, type BrandingTextField } from './brandingForm';
import { ContactCard, type ContactCardModel } from './ContactCard';
import { ImageUploadField } from './ImageUploadField';
import styles from './Branding.module.css';

export const BRANDING_FORM_ID = 'branding-form';

/**
 * Step 4, Add Your Branding (spec 000 §2, §4, §8): contact details, profile photo and brokerage
 * logo, with the contact card preview. Complete Setup saves them (PUT /api/agents/:id); a failed
 * save is only logged and the wizard goes on with what was typed.
 */
export function BrandingStep({ agent, listing, draft }: { agent: Agent; listing: Listing; draft: CompleteDraft }) {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const goToStep = useGoToStep();
  const id = useId();
  const [saveBranding] = useUpdateAgentBrandingMutation();
  const [form, setForm] = useState<BrandingForm>(() => formFrom(agent));
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [busyUploads, setBusyUploads] = useState({ photo: false, logo: false });
  const refs = useRef<Partial<Record<BrandingTextField, HTMLInputElement | null>>>({});

  const uploading = busyUploads.photo || busyUploads.logo;
  const errors: BrandingErrors = attempted ? validate(form) : {};
  const set = (field: keyof BrandingForm, value: string | null) => setForm((f) => ({ ...f, [field]: value }));
  const onPhotoBusy = useCallback((photo: boolean) => setBusyUploads((b) => ({ ...b, photo })), []);
  const onLogoBusy = useCallback((logo: boolean) => setBusyUploads((b) => ({ ...b, logo })), []);

  const submitLabel = saving ? 'Saving...' : uploading ? 'Uploading...' : 'Complete Setup';
  useMobileAction({ label: submitLabel, form: BRANDING_FORM_ID, disabled: saving || uploading });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || uploading) return;
    setAttempted(true);
    const found = validate(form);
    const first = (['name', 'email', 'phone', 'brokerage'] as const).find((f) => found[f]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    const body = bodyOf(form);
    setSaving(true);
    try {
      dispatch(agentSaved(await saveBranding({ id: agent.id, body }).unwrap()));
      toast(AGENT_TOASTS.saved);
    } catch (error) {
      // Spec 000 §8: the branding save failing is only logged; the previews keep what was typed.
      console.warn('The branding could not be saved:', errorText(error));
      dispatch(agentBrandingDrafted(body));
    } finally {
      setSaving(false);
    }
    goToStep(5);
  }

  const card: ContactCardModel = { ...form, mlsId: agent.mlsId };
  const field = (name: BrandingTextField, label: string, props: { type?: string; autoComplete?: string; maxLength: number; inputMode?: 'tel' | 'email' }) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      error={errors[name]}
      announce="polite"
      ref={(el) => {
        refs.current[name] = el;
      }}
      type={props.type ?? 'text'}
      autoComplete={props.autoComplete}
      inputMode={props.inputMode}
      maxLength={props.maxLength}
      value={form[name]}
      onChange={(e) => set(name, e.target.value)}
    />
  );

  return (
    <StepFrame
      title="Add Your Branding"
      subtitle="Buyers who tap your ad see this card on the property page."
      onBack={() => goToStep(3)}
      width="full"
      aside={<ListingChip listing={listing} campaign={draft} />}
    >
      <SplitLayout
        pane={<ContactCard card={card} />}
        paneLabel="Contact card preview"
        paneTitle="Contact card preview"
        compact={<ContactCard card={card} />}
      >
        <form id={BRANDING_FORM_ID} className={`${panels.panel} ${shared.panel}`} onSubmit={onSubmit} noValidate>
          <fieldset className={ui.section}>
            <legend className={shared.panelTitle}>Contact details</legend>
            {field('name', 'Full Name', { autoComplete: 'name', maxLength: LIMITS.name })}
            <div className={`${ui.row} ${ui.row2}`}>
              {field('email', 'Email', { type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: LIMITS.email })}
              {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel', maxLength: LIMITS.phone })}
            </div>
            {field('brokerage', 'Brokerage', { autoComplete: 'organization', maxLength: LIMITS.brokerage })}
          </fieldset>
          <fieldset className={`${ui.section} ${styles.uploads}`}>
            <legend className={shared.panelTitle}>Photo and logo</legend>
            <ImageUploadField
              label="Profile photo"
              hint="A friendly headshot. JPG or PNG, up to 10 MB."
              shape="round"
              value={form.profileImageUrl}
              onChange={(path) => set('profileImageUrl', path)}
              onBusyChange={onPhotoBusy}
            />
            <ImageUploadField
              label="Brokerage logo"
              hint="Shown on your contact card. Up to 10 MB."
              shape="logo"
              value={form.logoUrl}
              onChange={(path) => set('logoUrl', path)}
              onBusyChange={onLogoBusy}
            />
          </fieldset>
          <div className={shared.actions}>
            <button type="submit" className={buttons.primary} disabled={saving || uploading}>
              {submitLabel}
            </button>
          </div>
        </form>
      </SplitLayout>
    </StepFrame>
  );
}
