import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Phone numbers for display and dialling, by libphonenumber-js (the "min" metadata: every country, parsing
 * and formatting; US by default, since agents and their buyers are in the US). One rule for the server's
 * presenters and emails and the browser's live previews.
 */

/** A phone as shown and dialled: "(408) 555-0187 ext. 12" and "tel:+14085550187;ext=12" (RFC 3966). */
export interface PhoneLink {
  display: string;
  /** null when the text is no phone number that can be dialled. */
  href: string | null;
}

function parse(raw: string) {
  try {
    return parsePhoneNumberFromString(raw, 'US');
  } catch {
    return undefined;
  }
}

/**
 * US numbers in the national format ("(305) 555-1234", the spec's (xxx) xxx-xxxx), others in the
 * international one ("+44 20 7946 0958"), with the extension ("ext. 12"). Text that is no possible number
 * is shown as typed ("" for none).
 */
export function formatPhone(raw: string | null | undefined): string {
  const text = raw?.trim() ?? '';
  const phone = text ? parse(text) : undefined;
  return phone?.isPossible() ? display(phone) : text;
}

function display(phone: NonNullable<ReturnType<typeof parse>>): string {
  return phone.country === 'US' || (!phone.country && phone.countryCallingCode === '1') ? phone.formatNational() : phone.formatInternational();
}

/** The tel: URI with the extension as RFC 3966 says (";ext=12"), never run into the number; null if it cannot be dialled. */
export function phoneHref(raw: string | null | undefined): string | null {
  const phone = raw?.trim() ? parse(raw.trim()) : undefined;
  return phone?.isPossible() ? phone.getURI() : null;
}

/** Both, for a presenter (the text parsed once): null for no phone. */
export function phoneLink(raw: string | null | undefined): PhoneLink | null {
  const text = raw?.trim();
  if (!text) return null;
  const phone = parse(text);
  return phone?.isPossible() ? { display: display(phone), href: phone.getURI() } : { display: text, href: null };
}
