import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';
import {
  PaymentProviderError,
  type CreateIntentInput,
  type IntentStatus,
  type OffSessionCharge,
  type PaymentProvider,
  type ProviderIntent,
  type ProviderSetupIntent,
} from './payment-provider';
import { CARD_MESSAGES, type OffSessionBehaviour } from '../test-cards';

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

/** A row of local_setup_intents. */
export interface LocalSetupRow {
  id: string;
  clientSecret: string;
  customerId: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  paymentMethodId: string | null;
  metadata: Record<string, string>;
  lastSetupError: string | null;
}

/** A card the local provider saves on a customer: what the form entered (brand, last 4, expiry) and how it behaves later. */
export interface LocalCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  offSession: OffSessionBehaviour;
}

export interface LocalPaymentProvider extends PaymentProvider {
  readonly name: 'local';
  findByClientSecret(clientSecret: string): Promise<LocalIntentRow | undefined>;
  findSetupByClientSecret(clientSecret: string): Promise<LocalSetupRow | undefined>;
  /**
   * A card entered on a SetupIntent: its payment method is made and the intent moves from `from` to
   * `to` (succeeded, requires_action for 3-D Secure, or requires_payment_method with the decline).
   * Undefined when the intent had moved meanwhile.
   */
  applySetupChange(
    setupIntentId: string,
    from: readonly LocalSetupRow['status'][],
    change: { to: 'succeeded' | 'requires_action'; card?: LocalCard } | { to: 'requires_payment_method'; error: string },
  ): Promise<ProviderSetupIntent | undefined>;
  /**
   * Apply a confirmation's result if the intent is still in one of `from` (a succeeded intent never
   * changes). Returns the intent after the change, or undefined when it had moved meanwhile.
   */
  applyChange(intentId: string, from: readonly LocalIntentRow['status'][], change: LocalIntentChange, trx?: Knex.Transaction): Promise<ProviderIntent | undefined>;
}

const TABLE = 'localPaymentIntents';

const SETUPS = 'localSetupIntents';
const METHODS = 'localPaymentMethods';

async function toProviderSetup(db: Db | Knex.Transaction, row: LocalSetupRow): Promise<ProviderSetupIntent> {
  const pm = row.paymentMethodId ? await db(METHODS).where({ id: row.paymentMethodId }).first() : undefined;
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status,
    customerId: row.customerId,
    // Like Stripe's: the SetupIntent's payment method is the card only once it is set up.
    card: pm && row.status === 'succeeded' ? { paymentMethodId: pm.id, brand: pm.brand, last4: pm.last4, expMonth: pm.expMonth, expYear: pm.expYear } : null,
    metadata: row.metadata ?? {},
    lastSetupError: row.lastSetupError,
  };
}

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

    async createCustomer() {
      // Local customers are only ids: the saved cards (local_payment_methods) name them.
      return `cus_local_${crypto.randomBytes(12).toString('hex')}`;
    },

    async createSetupIntent(input) {
      const id = `seti_local_${crypto.randomBytes(12).toString('hex')}`;
      const [row] = await db(SETUPS)
        .insert({ id, clientSecret: `${id}_secret_${crypto.randomBytes(16).toString('hex')}`, customerId: input.customerId, metadata: JSON.stringify({ agentId: String(input.agentId) }) })
        .returning('*');
      return toProviderSetup(db, row as LocalSetupRow);
    },

    async retrieveSetupIntent(setupIntentId) {
      const row = (await db(SETUPS).where({ id: setupIntentId }).first()) as LocalSetupRow | undefined;
      return row ? toProviderSetup(db, row) : null;
    },

    async findSetupByClientSecret(clientSecret) {
      return (await db(SETUPS).where({ clientSecret }).first()) as LocalSetupRow | undefined;
    },

    async applySetupChange(setupIntentId, from, change) {
      return db.transaction(async (trx) => {
        const current = (await trx(SETUPS).where({ id: setupIntentId }).whereIn('status', from.filter((s) => s !== 'succeeded')).forUpdate().first()) as LocalSetupRow | undefined;
        if (!current) return undefined;
        const values: Record<string, unknown> = { status: change.to, updatedAt: trx.fn.now(), lastSetupError: change.to === 'requires_payment_method' ? change.error : null };
        if ('card' in change && change.card) {
          const pmId = `pm_local_${crypto.randomBytes(12).toString('hex')}`;
          await trx(METHODS).insert({ id: pmId, customerId: current.customerId, ...change.card });
          values.paymentMethodId = pmId;
        }
        const [row] = await trx(SETUPS).where({ id: setupIntentId }).update(values).returning('*');
        return toProviderSetup(trx, row as LocalSetupRow);
      });
    },

    async chargeOffSession(input): Promise<OffSessionCharge> {
      const pm = await db(METHODS).where({ id: input.paymentMethodId, customerId: input.customerId }).whereNull('detachedAt').first();
      if (!pm) throw new PaymentProviderError(`No such PaymentMethod: '${input.paymentMethodId}' on this customer`);
      let intent = input.intentId ? await this.retrieve(input.intentId) : null;
      intent ??= await this.createIntent({ amountCents: input.amountCents, currency: input.currency, campaignId: input.campaignId, idempotencyKey: input.idempotencyKey });
      if (intent.status === 'succeeded') return { intent, outcome: 'succeeded', message: null };
      const behaviour = pm.offSession as OffSessionBehaviour;
      const from = ['requires_payment_method', 'requires_action'] as const;
      const card = { brand: pm.brand as string, last4: pm.last4 as string };
      // Needs authentication: the intent waits for the card holder's 3-D Secure step (the checkout page's), as Stripe's does.
      const change: LocalIntentChange =
        behaviour === 'succeeded'
          ? { to: 'succeeded', ...card }
          : behaviour === 'authentication_required'
            ? { to: 'requires_action', ...card }
            : { to: 'requires_payment_method', error: CARD_MESSAGES.declined, ...card };
      const changed = await this.applyChange(intent.id, from, change);
      const now = changed ?? (await this.retrieve(intent.id))!;
      if (now.status === 'succeeded') return { intent: now, outcome: 'succeeded', message: null };
      if (behaviour === 'authentication_required') return { intent: now, outcome: 'authentication_required', message: CARD_MESSAGES.authenticationRequired };
      return { intent: now, outcome: 'failed', message: now.lastPaymentError ?? CARD_MESSAGES.declined };
    },

    async detachPaymentMethod(paymentMethodId) {
      await db(METHODS).where({ id: paymentMethodId }).whereNull('detachedAt').update({ detachedAt: db.fn.now() });
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
