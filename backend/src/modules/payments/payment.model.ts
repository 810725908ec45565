import { Model } from 'objection';
import type { PaymentProviderName } from './providers/payment-provider';

/** The payments table's status check lists the same values. */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'failed',
  'canceled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** One payment per campaign (unique campaign_id), mirroring one PaymentIntent at its provider. */
export class Payment extends Model {
  static override tableName = 'payments';

  id!: number;
  campaignId!: number;
  provider!: PaymentProviderName;
  /** The PaymentIntent's id (pi_… or pi_local_…); null until the provider answered. */
  providerPaymentId!: string | null;
  idempotencyKey!: string;
  /** What the provider charges: the budget less the account credit applied. */
  amountCents!: number;
  /** The agent's account credit this checkout uses (spent when it is paid). */
  creditAppliedCents!: number;
  agentId!: number | null;
  currency!: string;
  status!: PaymentStatus;
  failureMessage!: string | null;
  succeededAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
