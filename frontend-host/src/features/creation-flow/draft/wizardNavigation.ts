import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { WizardState } from './wizardSlice';
import type { WizardStep } from './wizardTypes';

export const FIRST_STEP: WizardStep = 1;
export const LAST_STEP: WizardStep = 6;

/** Short names for the progress indicator, by step. */
export const STEP_NAMES: Record<WizardStep, string> = {
  1: 'Listing',
  2: 'Ad format',
  3: 'Customize',
  4: 'Branding',
  5: 'Targeting',
  6: 'Budget',
};

/** The step query parameter as a step: anything unreadable is step 1, numbers are clamped to 1–6. */
export function parseStep(raw: string | null): WizardStep {
  const n = raw !== null && /^\d+$/.test(raw.trim()) ? Number(raw) : FIRST_STEP;
  return Math.min(LAST_STEP, Math.max(FIRST_STEP, n)) as WizardStep;
}

/**
 * Spec 000 §2 guards: step 2 or higher without an agent returns to step 1; step 3 or higher
 * without a listing returns to step 2 (or 1 when there is no agent).
 */
export function guardedStep(step: WizardStep, state: Pick<WizardState, 'agent' | 'listing'>): WizardStep {
  if (step >= 2 && !state.agent) return 1;
  if (step >= 3 && !state.listing) return 2;
  return step;
}

/** Two calls for one step this close together are one double-click. */
const DOUBLE_CLICK_MS = 800;
let lastPush: { step: WizardStep; at: number } | null = null;

/** True when the address bar already shows this step: a second click (a double-click) changes nothing. */
export function isCurrentStep(step: WizardStep, location: Pick<Location, 'pathname' | 'search'> = window.location): boolean {
  return location.pathname === '/' && location.search === `?step=${step}`;
}

/**
 * Moves the wizard to a step by updating the step query parameter (a new history entry). A double-click on
 * a listing row, Continue or Approve Ad asks twice before the page re-renders: the history is read at the
 * moment of the call (the router writes it at once), so the second call adds no second entry and Back
 * needs one press.
 */
export function useGoToStep() {
  const navigate = useNavigate();
  return useCallback(
    (step: WizardStep, options?: { replace?: boolean }) => {
      // Only the second click of a double-click: the same step asked for again within moments, already shown.
      const now = Date.now();
      if (lastPush && lastPush.step === step && now - lastPush.at < DOUBLE_CLICK_MS && isCurrentStep(step)) return;
      lastPush = { step, at: now };
      navigate({ pathname: '/', search: `?step=${step}` }, options);
    },
    [navigate],
  );
}
