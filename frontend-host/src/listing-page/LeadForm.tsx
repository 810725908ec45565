import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CURRENT_LEAD_CONSENT_VERSION,
  LEAD_CONSENT_TEXTS,
  LEAD_FAILED_FALLBACK,
  LEAD_FAILED_TOAST_TITLE,
  LEAD_FORM_MISSING_TOAST,
  LEAD_MIN_FILL_MS,
  LEAD_SENT_TOAST,
} from '@app/contracts/rules';
import { errorText, isApiError } from '@app/contracts/api-client';
import { toastAdded } from '../shared/toastSlice';
import { useListingDispatch } from './hooks';
import { useRequestLeadChallengeMutation, useSubmitLeadMutation } from './listingApi';
import { useFocusTrap } from './useFocusTrap';
import { solveChallenge } from './proof-of-work';
import { LeadFields, type LeadValues } from './LeadFields';


/** A fresh key per filled form: a resend (double tap, retry) is the same lead on the server. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long to hold a send so that LEAD_MIN_FILL_MS have passed since the server issued the page's form
 * token: it did so before the page's first byte arrived, so time counted from that arrival (navigation
 * timing, the same clock as performance.now) is never short. A buyer whose browser fills the form at once
 * then waits a moment instead of being refused (leads.too_fast) and sending again.
 */
export function holdBeforeSendMs(arrivedAt: number, now: number): number {
  return Math.max(0, Math.ceil(arrivedAt + LEAD_MIN_FILL_MS + 50 - now));
}

/** When the page's first byte arrived, on performance.now's clock (0, the time origin, without navigation timing). */
export function pageArrivedAt(): number {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav && nav.responseStart > 0 ? nav.responseStart : 0;
}

/** How long a send waits for the answer to the challenge asked as the form opened, before it goes without it. */
const EARLY_ANSWER_WAIT_MS = 1500;

export interface LeadFormProps {
  mlsId: string;
  formToken: string;
  pageUrl: string;
  /** The TCPA notice is shown on /listing only. */
  showConsent: boolean;
  title: string;
  initialTour: boolean;
  onClose: () => void;
}

/** Spec §2 lead form in a dialog: name, email, phone (optional), message, the two interests. */
export function LeadForm(props: LeadFormProps) {
  const dispatch = useListingDispatch();
  const [submitLead, { isLoading }] = useSubmitLeadMutation();
  const [values, setValues] = useState<LeadValues>({
    name: '',
    email: '',
    phone: '',
    message: '',
    interestedInTour: props.initialTour,
    interestedInSimilar: false,
  });
  const [key] = useState(newKey);
  const [waiting, setWaiting] = useState(false);
  const honeypot = useRef<HTMLInputElement>(null);
  // Stops a proof of work still running when the dialog closes.
  const stopped = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    stopped.current = controller;
    return () => controller.abort();
  }, []);
  // As the form opens it asks whether the listing is guarded (a flood); if so, the proof of work is solved while
  // the buyer types, and the first send carries it (Friendly Captcha starts solving when a form gets focus).
  const [requestChallenge] = useRequestLeadChallengeMutation();
  const early = useRef<{ asked: Promise<boolean>; proof: Promise<{ token: string; solution: string } | null> } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const challenge = requestChallenge({ mlsId: props.mlsId, form: { formToken: props.formToken, idempotencyKey: key } })
      .unwrap()
      .then(({ challenge }) => challenge, () => null);
    early.current = {
      asked: challenge.then((c) => c !== null),
      // Not answered, or the dialog closed: the send goes without it (a challenge in its answer is solved then).
      proof: challenge.then(async (c) => (c ? { token: c.token, solution: await solveChallenge(c, controller.signal) } : null)).catch(() => null),
    };
    return () => controller.abort();
  }, [requestChallenge, props.mlsId, props.formToken, key]);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => props.onClose(), [props]);
  useFocusTrap(ref, true, close);

  const set = (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const target = e.target as HTMLInputElement;
    setValues((v) => ({ ...v, [field]: target.type === 'checkbox' ? target.checked : target.value }));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!values.name.trim() || !values.email.trim()) {
      dispatch(toastAdded({ ...LEAD_FORM_MISSING_TOAST, variant: 'destructive' }));
      return;
    }
    const lead = {
      ...values,
      phone: values.phone.trim() || null,
      website: honeypot.current?.value ?? '',
      formToken: props.formToken,
      idempotencyKey: key,
      consentVersion: props.showConsent ? CURRENT_LEAD_CONSENT_VERSION : null,
      pageUrl: props.pageUrl,
    };
    const hold = holdBeforeSendMs(pageArrivedAt(), performance.now());
    if (hold > 0) {
      setWaiting(true);
      await sleep(hold);
      setWaiting(false);
    }
    // Solved by now, as a rule (the form takes seconds to fill). A solve still running is waited for (a send without
    // it would be asked for the same work); an unanswered question is not waited for long.
    const asked = early.current ? await Promise.race([early.current.asked, sleep(EARLY_ANSWER_WAIT_MS).then(() => false)]) : false;
    let proof = asked && early.current ? await early.current.proof : null;
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        const created = await submitLead({ mlsId: props.mlsId, lead: proof ? { ...lead, proof } : lead }).unwrap();
        // The listing is under a flood of junk leads: this one is stored and waits for the agent's review, unless
        // the page proves its work. Solved here (a fraction of a second), then the same form is sent with it.
        if (created.challenge && attempt < 3) {
          setWaiting(true);
          try {
            proof = { token: created.challenge.token, solution: await solveChallenge(created.challenge, stopped.current?.signal) };
          } finally {
            setWaiting(false);
          }
          continue;
        }
        dispatch(toastAdded(LEAD_SENT_TOAST));
        props.onClose();
        return;
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
        // Sent within seconds of the page's render: wait as the server says and send the same form again.
        const body = isApiError(err) ? err.body : null;
        if (body?.code === 'leads.too_fast' && typeof body.retryAfterSeconds === 'number') {
          setWaiting(true);
          await sleep(body.retryAfterSeconds * 1000);
          setWaiting(false);
          continue;
        }
        dispatch(toastAdded({ title: LEAD_FAILED_TOAST_TITLE, description: isApiError(err) && err.serverMessage ? errorText(err) : LEAD_FAILED_FALLBACK, variant: 'destructive' }));
        return;
      }
    }
  }

  const busy = isLoading || waiting;
  return (
    <div className="lp-overlay" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="lp-dialog" role="dialog" aria-modal="true" aria-labelledby="lead-form-title" ref={ref}>
        <div className="lp-dialog-head">
          <h2 id="lead-form-title">{props.title}</h2>
          <button type="button" className="lp-icon-button" aria-label="Close" onClick={close}>
            ×
          </button>
        </div>
        <form className="lp-form" onSubmit={onSubmit} noValidate>
          <LeadFields values={values} set={set} />
          {/* Honeypot: hidden from people and from assistive technology; programs fill it in. */}
          <div className="lp-hp" aria-hidden="true">
            <label>
              Website
              <input ref={honeypot} name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
            </label>
          </div>
          {props.showConsent && <p className="lp-consent">{LEAD_CONSENT_TEXTS[CURRENT_LEAD_CONSENT_VERSION]}</p>}
          <button type="submit" className="lp-button lp-primary" disabled={busy}>
            {busy ? 'Sending...' : 'Send'}
          </button>
        </form>
      </div>
    </div>
  );
}
