import { Model } from 'objection';

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
  createdAt!: Date;
}
