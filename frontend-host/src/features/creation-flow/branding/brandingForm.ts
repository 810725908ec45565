import { brandingUpdateSchema, fieldErrors } from '@app/contracts';
import type { BrandingBody } from '../creationFlowApi';
import type { Agent } from '../draft/wizardTypes';

/** Step 4's form: what is typed, the body PUT /api/agents/:id takes, and the field messages. */
export type BrandingTextField = 'name' | 'email' | 'phone' | 'brokerage';
export type BrandingErrors = Partial<Record<BrandingTextField, string>>;

export interface BrandingForm {
  name: string;
  email: string;
  phone: string;
  brokerage: string;
  profileImageUrl: string | null;
  logoUrl: string | null;
}

export function formFrom(agent: Agent): BrandingForm {
  return {
    name: agent.name ?? '',
    email: agent.email ?? '',
    phone: agent.phone ?? '',
    brokerage: agent.brokerage ?? '',
    profileImageUrl: agent.profileImageUrl ?? null,
    logoUrl: agent.logoUrl ?? null,
  };
}

export function bodyOf(form: BrandingForm): BrandingBody {
  const orNull = (s: string) => s.trim() || null;
  return {
    name: form.name.trim(),
    email: orNull(form.email),
    phone: orNull(form.phone),
    brokerage: orNull(form.brokerage),
    profileImageUrl: form.profileImageUrl,
    logoUrl: form.logoUrl,
  };
}

/**
 * The ad that runs carries "{agent name} · {brokerage}" (several states require the brokerage in a
 * housing ad), so an agent without one is asked for it here.
 */
export const BROKERAGE_REQUIRED = 'Brokerage is required: several states require it in your ad';

function brokerageMissing(form: BrandingForm): string | undefined {
  return form.brokerage.trim() ? undefined : BROKERAGE_REQUIRED;
}

export function validate(form: BrandingForm): BrandingErrors {
  const parsed = brandingUpdateSchema.safeParse(bodyOf(form));
  if (parsed.success) return { brokerage: brokerageMissing(form) };
  const found = fieldErrors(parsed.error) as Record<string, string | undefined>;
  return { name: found.name, email: found.email, phone: found.phone, brokerage: found.brokerage ?? brokerageMissing(form) };
}
