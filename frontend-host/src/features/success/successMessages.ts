/** Spec 000 §8 and spec 001 §2, §8: the success screen's texts, word for word. */
export const SUCCESS_TEXT = {
  title: 'Payment Successful!',
  subtitle: 'Your Facebook ad campaign has been created and will start running shortly.',
} as const;

export const SUCCESS_TOASTS = {
  campaignCreated: { title: 'Campaign Created!', description: 'Your Facebook ad is now live and running!' },
  campaignIssue: {
    title: 'Campaign Issue',
    description: 'Payment completed but there was an issue creating the campaign. Please contact support.',
  },
  dashboardError: { title: 'Error', description: 'Unable to access dashboard. Please try again.' },
  setupComplete: { title: 'Account Setup Complete!', description: 'Your Agent Dashboard is opening in a new tab.' },
  signedIn: { title: 'Signed in', description: 'Your Agent Dashboard is opening in a new tab.' },
  setupErrorTitle: 'Setup Error',
  setupErrorFallback: 'Failed to set up account. Please try again.',
} as const;
