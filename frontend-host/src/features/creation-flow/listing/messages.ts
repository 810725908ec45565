import type { ToastOptions } from '../../toast/useToast';

/** Texts of step 1, exactly as spec 000 §2, §8 words them. */
export const AGENT_NOT_FOUND_MARKER = 'No active agent found';
export const AGENT_NOT_FOUND_BOX = {
  title: 'Agent not found',
  text: 'Please double-check your name spelling and state, then try again.',
} as const;
export const AGENT_SEARCH_DEFAULT_FAILURE = 'Agent search failed';

export const LOADING_LABELS = {
  searching: 'Searching...',
  saving: 'Loading...',
  listings: 'Loading Listings...',
} as const;

export const TOASTS = {
  agentFound: (name: string): ToastOptions => ({ title: 'Agent Found', description: `Found ${name} in MLS system!` }),
  agentNotFound: {
    title: 'Agent Not Found',
    description: 'Please check your name spelling and state selection, then try again.',
    variant: 'destructive',
  } satisfies ToastOptions,
  searchError: (message: string | null): ToastOptions => ({
    title: 'Search Error',
    description: message || 'Failed to search for agent',
    variant: 'destructive',
  }),
  agentSaveError: (message: string | null): ToastOptions => ({
    title: 'Error',
    description: message || 'Failed to save agent information. Please try again.',
    variant: 'destructive',
  }),
  noListings: {
    title: 'No Listings Found',
    description:
      "We couldn't find any active listings for your MLS ID. You can enter listing details manually or explore our lead generation services.",
  } satisfies ToastOptions,
  listingSaveError: {
    title: 'Error',
    description: 'Failed to save listing information. Please try again.',
    variant: 'destructive',
  } satisfies ToastOptions,
  listingSaved: { title: 'Listing Information Saved' } satisfies ToastOptions,
  listingsLoaded: { title: 'Success', description: 'Your MLS listings have been loaded successfully.' } satisfies ToastOptions,
} as const;

/** The listing list's failure box when no answer arrived (the spec words no message for this read). */
export const LISTINGS_LOAD_FAILED = 'Please check your connection and try again.';
