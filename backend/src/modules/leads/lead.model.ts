import { Model } from 'objection';
import type { LeadHoldReason } from '@app/contracts';

export class Lead extends Model {
  static override tableName = 'leads';

  id!: number;
  listingId!: number;
  agentId!: number;
  name!: string;
  email!: string;
  phone!: string | null;
  message!: string | null;
  source!: string;
  interestedInTour!: boolean;
  interestedInSimilar!: boolean;
  /** The form's key: a second send of the same form finds the first lead. */
  idempotencyKey!: string | null;
  /** Consent record: which consent text was shown (null where none is shown), when, where, in which browser. */
  consentVersion!: string | null;
  consentAt!: Date | null;
  pageUrl!: string | null;
  userAgent!: string | null;
  /** `received` (handed to delivery), `held` for the agent's review (`holdReasons` says why), or `discarded`. */
  status!: 'received' | 'held' | 'discarded';
  holdReasons!: LeadHoldReason[] | null;
  /** When the agent released or discarded it. */
  reviewedAt!: Date | null;
  createdAt!: Date;
}
