/**
 * Autopilot (DESIGN §7): every new listing gets its ad on its own, behind a veto window, and the ad follows
 * the listing's status. Plain constants and types (no zod): the dashboard imports this file by path.
 */
import type { AdFormat } from './ad-defaults.js';

export const AUTOPILOT_WINDOW_MIN_HOURS = 1;
export const AUTOPILOT_WINDOW_MAX_HOURS = 72;
/** A draft that could not be paid expires this long after its launch time (scaled by AUTOPILOT_TIME_SCALE in tests). */
export const AUTOPILOT_EXPIRY_HOURS = 72;

export interface AutopilotTriggers {
  /** A new listing: a Just Listed ad. */
  justListed: boolean;
  /** A sale: the Just Listed ad stops and a Just Sold ad follows. */
  justSold: boolean;
  /** A price drop: a Price Improved ad. */
  priceImproved: boolean;
}

export interface AutopilotSettings {
  enabled: boolean;
  triggers: AutopilotTriggers;
  /** Whole dollars on the budget grid (99…999, steps of 50). */
  budget: number;
  adFormat: AdFormat;
  /** Hours between the listing appearing and the ad launching, when the agent may edit or skip it. */
  vetoWindowHours: number;
  /** Pause the running ad when the listing goes pending or is withdrawn. */
  pauseOnPending: boolean;
}

/** What `PUT {"enabled": true}` alone gets. */
export const AUTOPILOT_DEFAULTS: AutopilotSettings = {
  enabled: false,
  triggers: { justListed: true, justSold: true, priceImproved: false },
  budget: 299,
  adFormat: 'single',
  vetoWindowHours: 24,
  pauseOnPending: true,
};

export const AUTOPILOT_RUN_KINDS = ['just_listed', 'just_sold', 'price_improved', 'pause', 'stop', 'resume_offer'] as const;
export type AutopilotRunKind = (typeof AUTOPILOT_RUN_KINDS)[number];

export const AUTOPILOT_RUN_STATUSES = [
  'scheduled',
  'charging',
  'launched',
  'needs_card',
  'needs_authentication',
  'charge_failed',
  'skipped',
  'expired',
  'failed',
  'pausing',
  'paused',
  'stopping',
  'stopped',
  'offered',
  'resumed',
] as const;
export type AutopilotRunStatus = (typeof AUTOPILOT_RUN_STATUSES)[number];

/** Runs still ahead of the agent (the dashboard's scheduled list); the others are history. */
export const AUTOPILOT_PENDING_STATUSES: readonly AutopilotRunStatus[] = ['scheduled', 'charging', 'needs_card', 'needs_authentication', 'charge_failed', 'offered', 'pausing', 'stopping'];

/** The dashboard's words for each kind and status. */
export const AUTOPILOT_KIND_LABELS: Record<AutopilotRunKind, string> = {
  just_listed: 'Just Listed',
  just_sold: 'Just Sold',
  price_improved: 'Price Improved',
  pause: 'Pause',
  stop: 'Stop',
  resume_offer: 'Resume offer',
};

export const AUTOPILOT_STATUS_LABELS: Record<AutopilotRunStatus, string> = {
  scheduled: 'Scheduled',
  charging: 'Launching',
  launched: 'Launched',
  needs_card: 'Needs a card',
  needs_authentication: 'Needs your confirmation',
  charge_failed: 'Payment failed',
  skipped: 'Skipped',
  expired: 'Expired',
  failed: 'Failed',
  pausing: 'Pausing',
  paused: 'Paused',
  stopping: 'Stopping',
  stopped: 'Stopped',
  offered: 'Resume offered',
  resumed: 'Resumed',
};

/** The actions of the emailed one-tap links. */
export const AUTOPILOT_LINK_ACTIONS = ['launch', 'edit', 'skip', 'card', 'confirm', 'resume'] as const;
export type AutopilotLinkAction = (typeof AUTOPILOT_LINK_ACTIONS)[number];

export const AUTOPILOT_MESSAGES = {
  needsMls: 'Autopilot follows your MLS listings: it works for agents found in the MLS.',
  windowRange: `The veto window is ${AUTOPILOT_WINDOW_MIN_HOURS} to ${AUTOPILOT_WINDOW_MAX_HOURS} hours`,
  linkInvalid: 'This link is not valid.',
  linkExpired: 'This link has expired.',
  linkUsed: 'This link was already used.',
  tooLate: 'Too late: this ad is already launching.',
  saved: 'Autopilot settings saved',
} as const;
