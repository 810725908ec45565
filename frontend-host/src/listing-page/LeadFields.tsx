import type { ChangeEvent } from 'react';
import type { LeadFormInput } from '@app/contracts';

/** What the buyer has typed and ticked so far. */
export type LeadValues = { [K in keyof Required<LeadFormInput>]: K extends 'interestedInTour' | 'interestedInSimilar' ? boolean : string };

/** The lead form's fields (spec §2): name and email (required), phone (optional), message, and the two interests. */
export function LeadFields({
  values,
  set,
}: {
  values: LeadValues;
  set: (field: keyof LeadValues) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}) {
  return (
    <>
      <label>
        Name <span aria-hidden="true">*</span>
        <input name="name" autoComplete="name" required value={values.name} onChange={set('name')} data-autofocus />
      </label>
      <label>
        Email <span aria-hidden="true">*</span>
        <input name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
      </label>
      <label>
        Phone (optional)
        <input name="phone" type="tel" autoComplete="tel" value={values.phone} onChange={set('phone')} />
      </label>
      <label>
        Message
        <textarea name="message" rows={3} value={values.message} onChange={set('message')} />
      </label>
      <label className="lp-check">
        <input type="checkbox" name="interestedInTour" checked={values.interestedInTour} onChange={set('interestedInTour')} />
        I'd like to schedule a tour
      </label>
      <label className="lp-check">
        <input type="checkbox" name="interestedInSimilar" checked={values.interestedInSimilar} onChange={set('interestedInSimilar')} />
        Send me similar properties
      </label>
    </>
  );
}
