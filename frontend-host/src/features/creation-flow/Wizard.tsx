import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { Landing } from './landing/Landing';
import { MobileActionProvider } from './shared/MobileAction';
import { STEP_NAMES, guardedStep, parseStep, useGoToStep, LAST_STEP } from './draft/wizardNavigation';
import { pathChosen, selectWizard, wizardReset } from './draft/wizardSlice';
import { WIZARD_STEPS, type WizardPath, type WizardStep } from './draft/wizardTypes';
import styles from './Wizard.module.css';

/** A saved draft reopened by autopilot's Edit link: its own chunk (the landing never needs it). */
const ReopenDraft = lazy(() => import('./ReopenDraft'));

/** Step 1's forms import the contracts (zod): a chunk of their own, fetched when a path is chosen. */
export const loadListingStep = () => import('./listing/ListingStep');
const ListingStep = lazy(loadListingStep);
/** Steps 2–6: one chunk, fetched while the agent is still on step 1. */
export const loadSteps = () => import('./Steps');
const Steps = lazy(loadSteps);

/**
 * The creation wizard at `/` (spec 000 §2, §4): the step query parameter (1–6), the reset when it
 * is absent, the guards, and the frame around each step.
 */
export function Wizard() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const [params] = useSearchParams();
  const goToStep = useGoToStep();
  const wizard = useAppSelector(selectWizard);

  const stepParam = params.get('step');
  // `?edit={campaignId}`: a saved draft reopens (ReopenDraft), then the step takes over.
  const editParam = params.get('edit');
  const editId = editParam && /^\d{1,9}$/.test(editParam) ? Number(editParam) : null;
  const resetting = stepParam === null && editId === null;
  const requested = parseStep(stepParam);
  const step: WizardStep = resetting ? 1 : guardedStep(requested, wizard);
  const path: WizardPath = resetting ? 'none' : wizard.path;

  // No step parameter: the wizard starts over (stored agent, listing, path and campaign draft go).
  useEffect(() => {
    if (resetting) dispatch(wizardReset());
  }, [dispatch, resetting, location.key]);

  // A guarded or unreadable step: show the allowed one in the address bar too.
  useEffect(() => {
    if (!resetting && editId === null && stepParam !== String(step)) goToStep(step, { replace: true });
  }, [resetting, editId, stepParam, step, goToStep]);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [step, path]);

  // Someone who returns to a chosen path (reload, Back from step 2) needs step 1's forms at once;
  // steps 2–6 come next, so they are fetched behind them (no spinner when a listing is picked).
  useEffect(() => {
    if (path !== 'none') void loadListingStep().then(loadSteps);
  }, [path]);

  // /?start=mls|manual: a landing button tapped before the page's JavaScript ran submitted its form.
  const start = params.get('start');
  useEffect(() => {
    if (start !== 'mls' && start !== 'manual') return;
    dispatch(pathChosen(start));
    goToStep(1, { replace: true });
  }, [dispatch, goToStep, start]);

  const choosePath = useCallback(
    (chosen: 'mls' | 'manual') => {
      dispatch(pathChosen(chosen));
      if (stepParam !== '1') goToStep(1);
    },
    [dispatch, goToStep, stepParam],
  );

  if (editId !== null && stepParam === null) {
    return (
      <Suspense fallback={<Spinner fullPage label="Opening your ad..." />}>
        <ReopenDraft campaignId={editId} />
      </Suspense>
    );
  }

  if (step === 1 && path === 'none') {
    return <Landing onChoose={choosePath} onIntent={loadListingStep} />;
  }

  return (
    <div className={styles.wizard}>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <span className={styles.brand}>Listing Ads</span>
          <StepProgress step={step} />
        </div>
      </header>
      <MobileActionProvider>
        <main className={styles.main}>
          <Suspense fallback={<Spinner label="Loading..." />}>
            {step === 1 ? <ListingStep /> : <Steps step={step} />}
          </Suspense>
        </main>
      </MobileActionProvider>
    </div>
  );
}

function StepProgress({ step }: { step: WizardStep }) {
  return (
    <div className={styles.progress}>
      <p className={styles.progressLabel}>
        Step {step} of {LAST_STEP}
        <span className={styles.progressName}> · {STEP_NAMES[step]}</span>
      </p>
      <ol className={styles.progressList} aria-label="Campaign setup progress">
        {WIZARD_STEPS.map((index) => {
          const state = index < step ? 'done' : index === step ? 'current' : 'todo';
          return (
            <li key={index} className={styles.progressItem} data-state={state} aria-current={state === 'current' ? 'step' : undefined}>
              <span className={styles.progressDot} aria-hidden="true">
                {state === 'done' ? '✓' : index}
              </span>
              <span className={styles.progressText}>{STEP_NAMES[index]}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
