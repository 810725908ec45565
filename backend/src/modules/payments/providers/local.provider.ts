import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';
import { PaymentProviderError, type CreateIntentInput, type IntentStatus, type PaymentProvider, type ProviderIntent } from './payment-provider';

/** A row of local_payment_intents (the embedded provider's own PaymentIntents). */
export interface LocalIntentRow {
  id: string;
  clientSecret: string;
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  status: Extract<IntentStatus, 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled'>;
  metadata: Record<string, string>;
  lastPaymentError: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  confirmAttempts: number;
}

/** What a confirmation did to the intent. */
export type LocalIntentChange =
  | { to: 'succeeded'; brand: string; last4: string }
  | { to: 'requires_action'; brand: string; last4: string }
  | { to: 'requires_payment_method'; error: string; brand?: string; last4?: string };

export interface LocalPaymentProvider extends PaymentProvider {
  readonly name: 'local';
  findByClientSecret(clientSecret: string): Promise<LocalIntentRow | undefined>;
  /**
   * Apply a confirmation's result if the intent is still in one of `from` (a succeeded intent never
   * changes). Returns the intent after the change, or undefined when it had moved meanwhile.
   */
  applyChange(intentId: string, from: readonly LocalIntentRow['status'][], change: LocalIntentChange, trx?: Knex.Transaction): Promise<ProviderIntent | undefined>;
}

const TABLE = 'localPaymentIntents';

function toProviderIntent(row: LocalIntentRow): ProviderIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status,
    amountCents: row.amountCents,
    currency: row.currency,
    metadata: row.metadata ?? {},
    lastPaymentError: row.lastPaymentError,
  };
}

/**
 * Local test payments: PaymentIntents kept in our own table, with ids and client secrets shaped like
 * Stripe's (`pi_local_…`, `pi_local_…_secret_…`, 128 random bits: unguessable). Creating twice with
 * one idempotency key returns the same intent, as Stripe does.
 */
export function createLocalPaymentProvider(db: Db): LocalPaymentProvider {
  return {
    name: 'local',
    publishableKey: null,

    async createIntent(input: CreateIntentInput) {
      const id = `pi_local_${crypto.randomBytes(12).toString('hex')}`;
      await db(TABLE)
        .insert({
          id,
          clientSecret: `${id}_secret_${crypto.randomBytes(16).toString('hex')}`,
          idempotencyKey: input.idempotencyKey,
          amountCents: input.amountCents,
          currency: input.currency,
          status: 'requires_payment_method',
          metadata: JSON.stringify({ campaignId: String(input.campaignId) }),
        })
        .onConflict('idempotencyKey')
        .ignore();
      const row = await db<LocalIntentRow>(TABLE).where({ idempotencyKey: input.idempotencyKey }).first();
      if (!row) throw new PaymentProviderError('local payments: the intent could not be created');
      if (row.amountCents !== input.amountCents || row.currency !== input.currency) {
        // Stripe answers the same way when a key is reused with other parameters.
        throw new PaymentProviderError('Keys for idempotent requests can only be used with the same parameters they were first used with.');
      }
      return toProviderIntent(row);
    },

    async retrieve(intentId: string) {
      const row = await db<LocalIntentRow>(TABLE).where({ id: intentId }).first();
      return row ? toProviderIntent(row) : null;
    },

    async updateAmount(intentId: string, amountCents: number) {
      const updated = await db<LocalIntentRow>(TABLE)
        .where({ id: intentId })
        .whereIn('status', ['requires_payment_method', 'requires_action'])
        .update({ amountCents })
        .returning('*');
      if (!updated[0]) {
        const row = await db<LocalIntentRow>(TABLE).where({ id: intentId }).first();
        // Stripe's words for the same refusal.
        throw new PaymentProviderError(`This PaymentIntent's amount could not be updated because it has a status of ${row?.status ?? 'unknown'}.`);
      }
      return toProviderIntent(updated[0]);
    },

    async refund(input) {
      // As Stripe: one refund per idempotency key; only a succeeded intent, and never more than it charged.
      return db.transaction(async (trx) => {
        const existing = await trx('localRefunds').where({ idempotencyKey: input.idempotencyKey }).first();
        if (existing) {
          if (existing.paymentIntentId !== input.intentId || existing.amountCents !== input.amountCents) {
            throw new PaymentProviderError('Keys for idempotent requests can only be used with the same parameters they were first used with.', { refused: true });
          }
          return { id: existing.id as string, amountCents: existing.amountCents as number, status: existing.status as string };
        }
        const intent = await trx<LocalIntentRow>(TABLE).where({ id: input.intentId }).forUpdate().first();
        if (!intent) throw new PaymentProviderError(`No such payment_intent: '${input.intentId}'`, { refused: true });
        if (intent.status !== 'succeeded') throw new PaymentProviderError(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, { refused: true });
        const done = await trx('localRefunds').where({ paymentIntentId: intent.id }).sum({ cents: 'amountCents' }).first();
        if (Number(done?.cents ?? 0) + input.amountCents > intent.amountCents) {
          throw new PaymentProviderError(`Refund amount ($${(input.amountCents / 100).toFixed(2)}) is greater than unrefunded amount on charge.`, { refused: true });
        }
        const id = `re_local_${crypto.randomBytes(12).toString('hex')}`;
        await trx('localRefunds').insert({ id, paymentIntentId: intent.id, amountCents: input.amountCents, idempotencyKey: input.idempotencyKey, status: 'succeeded' });
        return { id, amountCents: input.amountCents, status: 'succeeded' };
      });
    },

    async findByClientSecret(clientSecret: string) {
      return db<LocalIntentRow>(TABLE).where({ clientSecret }).first();
    },

    async applyChange(intentId: string, from: readonly LocalIntentRow['status'][], change: LocalIntentChange, trx?: Knex.Transaction) {
      const values: Record<string, unknown> = {
        status: change.to,
        lastPaymentError: change.to === 'requires_payment_method' ? change.error : null,
        confirmAttempts: (trx ?? db).raw('confirm_attempts + 1'),
        updatedAt: (trx ?? db).fn.now(),
      };
      if (change.brand) values.cardBrand = change.brand;
      if (change.last4) values.cardLast4 = change.last4;
      const [row] = await (trx ?? db)<LocalIntentRow>(TABLE)
        .where({ id: intentId })
        .whereIn('status', from.filter((s) => s !== 'succeeded'))
        .update(values)
        .returning('*');
      return row ? toProviderIntent(row as LocalIntentRow) : undefined;
    },
  };
}
