import { AGENT_FORM_MISSING_TOAST, agentFormSchema, fieldErrors } from '@app/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert, SelectField, TextField, buttonStyles as buttons, panelStyles as panels } from '@app/ui';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useMobileAction } from '../shared/MobileAction';
import { StepFrame } from '../shared/StepFrame';
import { agentFormChanged, manualDraftChanged, pathChosen, returnedToChooser, selectWizard } from '../draft/wizardSlice';
import { AGENT_NOT_FOUND_BOX, LOADING_LABELS } from './messages';
import { StateOptions } from '../shared/StateOptions';
import { manualDraftFrom } from './manualDraft';
import type { MlsFlow } from './useMlsFlow';
import styles from '../shared/controls.module.css';

export const AGENT_FORM_ID = 'agent-form';

type Errors = Partial<Record<'name' | 'state', string>>;

/** MLS path, part A (spec 000 §2, §5): name and state, Find My Listings, or Enter Manually. */
export function AgentForm({ flow }: { flow: MlsFlow }) {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const { agentForm: values, manualDraft } = useAppSelector(selectWizard);
  const [attempted, setAttempted] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const stateSelect = useRef<HTMLSelectElement>(null);
  const id = useId();

  const errors: Errors = attempted ? validate(values) : {};
  const busy = flow.phase !== 'idle';
  const submitLabel =
    flow.phase === 'searching' ? LOADING_LABELS.searching : flow.phase === 'saving' ? LOADING_LABELS.saving : 'Find My Listings';

  useMobileAction({ label: submitLabel, form: AGENT_FORM_ID, disabled: busy });

  /** Both fields filled, or the spec's toast and the field messages. */
  function checkRequired(): boolean {
    setAttempted(true);
    const found = validate(values);
    if (!found.name && !found.state) return true;
    toast({ ...AGENT_FORM_MISSING_TOAST, variant: 'destructive' });
    (found.name ? nameInput : stateSelect).current?.focus();
    return false;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !checkRequired()) return;
    void flow.findListings({ name: values.name.trim(), state: values.state });
  }

  function enterManually() {
    if (busy || !checkRequired()) return;
    dispatch(manualDraftChanged({ ...manualDraftFrom(manualDraft, null), fullName: values.name.trim(), state: values.state }));
    dispatch(pathChosen('manual'));
  }

  return (
    <StepFrame
      title="Find your listings"
      subtitle="Enter your name and state. We'll look you up in the MLS and bring in your active and sold listings."
      onBack={() => dispatch(returnedToChooser())}
      backDisabled={busy}
    >
      <div className={panels.panel}>
        <form id={AGENT_FORM_ID} className={styles.form} noValidate onSubmit={onSubmit} aria-busy={busy}>
          <div>
            {flow.notFound && (
              <Alert title={AGENT_NOT_FOUND_BOX.title}>{AGENT_NOT_FOUND_BOX.text}</Alert>
            )}
          </div>

          <TextField
            ref={nameInput}
            id={`${id}-name`}
            name="name"
            label="Full Name"
            error={errors.name}
            announce="polite"
            autoComplete="name"
            placeholder="e.g. Sarah Johnson"
            value={values.name}
            onChange={(e) => dispatch(agentFormChanged({ name: e.target.value }))}
          />

          <SelectField
            ref={stateSelect}
            id={`${id}-state`}
            name="state"
            label="State"
            error={errors.state}
            announce="polite"
            autoComplete="address-level1"
            value={values.state}
            onChange={(e) => dispatch(agentFormChanged({ state: e.target.value }))}
          >
            <StateOptions />
          </SelectField>

          <button type="submit" className={`${buttons.primary} ${buttons.block}`} disabled={busy}>
            {busy && <span className={buttons.spinner} aria-hidden="true" />}
            {submitLabel}
          </button>
          <div className={styles.divider}>or</div>
          <button type="button" className={`${buttons.secondary} ${buttons.block}`} onClick={enterManually} disabled={busy}>
            Enter Manually
          </button>
        </form>
      </div>
    </StepFrame>
  );
}

function validate(values: { name: string; state: string }): Errors {
  const result = agentFormSchema.safeParse(values);
  if (result.success) return {};
  const found = fieldErrors(result.error);
  return { name: found.name, state: found.state };
}
