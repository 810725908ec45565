import { AD_COPY_PLACEHOLDERS, isAdCopyPlaceholder, templateTypeForStatus, type TemplateType } from '@app/contracts';
import type { Listing } from './wizardTypes';

/**
 * When the wizard asks for ad copy by itself (spec 000 §7): only for a just-listed listing that has
 * a description — the copywriter works from it. Every other listing starts with its own description
 * (or an empty text for the agent to write), and the agent can still ask for copy with Refresh.
 */
export function wantsAutomaticAdCopy(listing: Pick<Listing, 'status' | 'description'>, templateType?: TemplateType): boolean {
  return (templateType ?? templateTypeForStatus(listing.status)) === 'just-listed' && !!listing.description?.trim();
}

/** What the ad text is when there is no optimized copy: the listing's description, else empty. */
export function fallbackAdCopy(listing: Pick<Listing, 'description'>): string {
  return listing.description?.trim() ?? '';
}

/** The description a new draft starts with: the placeholder while copy is on its way, else the fallback. */
export function initialAdCopy(listing: Pick<Listing, 'status' | 'description'>): string {
  return wantsAutomaticAdCopy(listing) ? AD_COPY_PLACEHOLDERS.generating : fallbackAdCopy(listing);
}

/** The description as saved: never one of the placeholders (the server refuses them). */
export function savableAdCopy(description: string | null | undefined): string {
  return !description || isAdCopyPlaceholder(description) ? '' : description.trim();
}

export type AdCopyPhase = 'generating' | 'regenerating' | 'failed' | 'ready';

/**
 * The ad text as the preview and the form show it (spec 000 §4): "Generating optimized ad copy..."
 * while the first copy is on its way, "Regenerating ad copy..." during a refresh. After a failed
 * refresh (which empties the text) the phase is 'failed' and the text stays empty until the agent
 * writes one: "Unable to generate optimized copy" is shown as an error beside the text, never as the
 * ad's text (an error text is never ad copy).
 */
export function displayedAdCopy(
  description: string,
  refresh: 'idle' | 'regenerating' | 'failed',
): { phase: AdCopyPhase; text: string } {
  if (refresh === 'regenerating') return { phase: 'regenerating', text: AD_COPY_PLACEHOLDERS.regenerating };
  if (description === AD_COPY_PLACEHOLDERS.generating) return { phase: 'generating', text: description };
  const real = savableAdCopy(description);
  if (!real && refresh === 'failed') return { phase: 'failed', text: '' };
  return { phase: 'ready', text: real };
}
