import type { ToastOptions } from '../../toast/useToast';

/** Toasts of steps 2–6, in spec 000 §8's words (a bare "Success X" in the spec is a toast titled X, as in step 1). */
export const AD_COPY_TOASTS = {
  refreshed: { title: 'Ad copy refreshed!' } satisfies ToastOptions,
  refreshFailed: {
    title: 'Refresh failed',
    description: 'Unable to generate new copy. Please try again.',
    variant: 'destructive',
  } satisfies ToastOptions,
} as const;

/** Spec 000 §8, agent save: step 4's Complete Setup saves the agent's information. */
export const AGENT_TOASTS = {
  saved: { title: 'Success', description: 'Agent information saved successfully!' } satisfies ToastOptions,
} as const;

export const TARGETING_TOASTS = {
  loadFailed: {
    title: 'Error Loading Targeting',
    description: 'Using default targeting options',
    variant: 'destructive',
  } satisfies ToastOptions,
} as const;

export const CAMPAIGN_TOASTS = {
  /** Step 5: the wizard's campaign creation. */
  created: { title: 'Facebook Campaign Created!' } satisfies ToastOptions,
  createFailed: {
    title: 'Campaign Creation Failed',
    description: 'There was an issue creating the campaign. Please try again.',
    variant: 'destructive',
  } satisfies ToastOptions,
  /**
   * Step 5, when the server refuses the ad itself (400 with field messages, e.g. a listing without a photo):
   * the same title, with the server's reasons instead of "please try again", which would not help.
   */
  createRefused: (reasons: string[]): ToastOptions => ({
    title: 'Campaign Creation Failed',
    description: reasons.join(' '),
    variant: 'destructive',
    duration: 10_000,
  }),
  /** Step 6: the draft saved with its budget, on the way to checkout. */
  savedForCheckout: { title: 'Campaign created! Redirecting to checkout...' } satisfies ToastOptions,
  saveFailed: (serverMessage: string | null): ToastOptions => ({
    title: 'Error',
    description: serverMessage || 'Failed to create campaign.',
    variant: 'destructive',
  }),
} as const;
