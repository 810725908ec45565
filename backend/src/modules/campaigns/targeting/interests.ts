import { interestsForTemplate, type TargetingInterest, type TargetingTemplateId } from '@app/contracts';

/**
 * Which interests the targeting step starts with, by listing price. The interests are the
 * templates' (contracts/targeting.ts); the price decides which templates:
 *
 *   below $400,000            Active Home Buyers + Financing & Mortgages (first purchases, loan shoppers)
 *   $400,000 – $999,999       General Audience + Active Home Buyers
 *   $1,000,000 and above      General Audience + Real Estate Investors (luxury and investment buyers)
 *
 * $400,000 is about the US median sale price of existing homes (NAR, 2024: ~$407,500), so "below"
 * means entry-level for most markets; $1,000,000 is the common industry line for luxury.
 * A price of 0 or unknown counts as mid-market.
 */
export const ENTRY_LEVEL_MAX_PRICE = 400_000;
export const LUXURY_MIN_PRICE = 1_000_000;

export function templatesForPrice(listingPrice: number): TargetingTemplateId[] {
  if (listingPrice > 0 && listingPrice < ENTRY_LEVEL_MAX_PRICE) return ['buyers', 'financing'];
  if (listingPrice >= LUXURY_MIN_PRICE) return ['general', 'investment'];
  return ['general', 'buyers'];
}

/** The templates' interests, all enabled, without duplicates ("Zillow" is in two templates). */
export function interestsForPrice(listingPrice: number): TargetingInterest[] {
  const out: TargetingInterest[] = [];
  for (const template of templatesForPrice(listingPrice)) {
    for (const interest of interestsForTemplate(template)) {
      if (!out.some((i) => i.id === interest.id)) out.push(interest);
    }
  }
  return out;
}
