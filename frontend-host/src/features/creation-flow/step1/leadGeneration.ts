/**
 * The external lead-generation page behind "Learn More →" in the empty listings state
 * (spec 000 §2: "opens an external lead-generation page in a new tab"). The spec does not name
 * the page; this is the one place to change it.
 */
export const LEAD_GENERATION_URL = 'https://www.listingads.example/lead-generation';
