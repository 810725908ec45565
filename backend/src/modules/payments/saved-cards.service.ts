import crypto from 'node:crypto';
import { PAID_STATUSES, type CardSetup, type SavedCard, type SavedCardView } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import type { Db } from '../../platform/db/knex';
import { notFound } from '../../platform/errors';
import { getAccessibleAgent } from '../agents';
import { getCampaignForPayment, type CampaignStatus } from '../campaigns';
import { Payment } from './payment.model';
import { cardNotSaved, providerUnavailable, setupNotFound } from './payments.errors';
import { askProvider, paymentOnProvider, preparePayment, settleIfPaid, type PaymentsContext } from './payments.service';
import type { PaymentProvider, PaymentProviderName, ProviderSetupIntent } from './providers';

/**
 * Saved cards (DESIGN §7, autopilot): the agent saves a card once, on a customer at the payment provider,
 * through a SetupIntent with `usage: off_session`; autopilot later charges it with the agent away
 * (`chargeSavedCard`), through the same payment row, key and settlement as a checkout.
 */

interface CardRow {
  agentId: number;
  provider: PaymentProviderName;
  customerId: string;
  paymentMethodId: string | null;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  savedAt: Date | null;
  pendingSetupIntentId: string | null;
}

const TABLE = 'paymentCards';
/** pg_advisory_xact_lock(namespace, agentId): one card setup at a time per agent. */
const LOCK_NAMESPACE = 7_2501;

const present = (row: CardRow | undefined): SavedCard | null =>
  row?.paymentMethodId && row.brand && row.last4 ? { brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear } : null;

/** The agent's saved card, if any (autopilot's settings and emails show brand and last 4). */
export async function savedCardOf(db: Db, agentId: number): Promise<SavedCard | null> {
  return present((await db(TABLE).where({ agentId }).first()) as CardRow | undefined);
}

/** When each of these agents last saved a card (autopilot tries a failed charge again once a new card is saved). */
export async function savedCardsSavedAt(db: Db, agentIds: readonly number[]): Promise<Map<number, Date>> {
  if (!agentIds.length) return new Map();
  const rows = (await db(TABLE).whereIn('agentId', agentIds as number[]).whereNotNull('savedAt').select('agentId', 'savedAt')) as { agentId: number; savedAt: Date }[];
  return new Map(rows.map((r) => [r.agentId, r.savedAt]));
}

/** GET /api/agents/:id/saved-card. */
export async function savedCardView(ctx: PaymentsContext, actor: Actor, agentId: number): Promise<SavedCardView> {
  await getAccessibleAgent(actor, agentId, 'signed_in');
  return { card: await savedCardOf(ctx.db, agentId), provider: ctx.providers.active.name };
}

/**
 * POST /api/agents/:id/saved-card/setup: a SetupIntent (usage off_session) on the agent's customer at the
 * provider that runs now (made once per agent and provider), for the card form to confirm. The card saved
 * before stays until the new one is set up.
 */
export async function startCardSetup(ctx: PaymentsContext, actor: Actor, agentId: number): Promise<CardSetup> {
  const agent = await getAccessibleAgent(actor, agentId, 'signed_in');
  const provider = ctx.providers.active;
  return ctx.db.transaction(async (trx) => {
    // Two tabs setting up at once make one customer, not two.
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, agentId]);
    let row = (await trx(TABLE).where({ agentId }).first()) as CardRow | undefined;
    if (!row || row.provider !== provider.name) {
      const customerId = await askProvider(ctx.logger, 'create customer', () =>
        provider.createCustomer({ agentId, email: agent.email, name: agent.name, idempotencyKey: `agent-${agentId}-customer-${crypto.randomBytes(6).toString('hex')}` }),
      );
      // Another provider's card cannot be charged by this one: the agent saves a card here.
      const fresh = { provider: provider.name, customerId, paymentMethodId: null, brand: null, last4: null, expMonth: null, expYear: null, savedAt: null, updatedAt: trx.fn.now() };
      [row] = (await trx(TABLE).insert({ agentId, ...fresh }).onConflict('agentId').merge(Object.keys(fresh)).returning('*')) as CardRow[];
    }
    const customerId = row!.customerId;
    const si = await askProvider(ctx.logger, 'create setup intent', () => provider.createSetupIntent({ customerId, agentId }));
    await trx(TABLE).where({ agentId }).update({ pendingSetupIntentId: si.id, updatedAt: trx.fn.now() });
    if (!si.clientSecret) throw providerUnavailable();
    return { setupIntentId: si.id, clientSecret: si.clientSecret, provider: provider.name, publishableKey: provider.publishableKey };
  });
}

/**
 * A SetupIntent the provider says succeeded becomes the agent's saved card (it must be on the agent's own
 * customer, made for this agent). The card it replaces is detached. True when saved.
 */
export async function saveCardFromSetup(ctx: Pick<PaymentsContext, 'db' | 'logger'>, provider: PaymentProvider, si: ProviderSetupIntent): Promise<boolean> {
  const agentId = Number(si.metadata.agentId);
  if (si.status !== 'succeeded' || !si.card || !si.customerId || !Number.isSafeInteger(agentId)) return false;
  const card = si.card;
  const saved = await ctx.db.transaction(async (trx) => {
    const row = (await trx(TABLE).where({ agentId, provider: provider.name, customerId: si.customerId }).forUpdate().first()) as CardRow | undefined;
    if (!row) return null;
    await trx(TABLE)
      .where({ agentId })
      .update({
        paymentMethodId: card.paymentMethodId,
        brand: card.brand.slice(0, 20),
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        savedAt: trx.fn.now(),
        pendingSetupIntentId: null,
        updatedAt: trx.fn.now(),
      });
    return { replaced: row.paymentMethodId && row.paymentMethodId !== card.paymentMethodId ? row.paymentMethodId : null };
  });
  if (!saved) return false;
  ctx.logger.info({ agentId, provider: provider.name, brand: card.brand, last4: card.last4 }, 'payments: card saved');
  if (saved.replaced) await provider.detachPaymentMethod(saved.replaced).catch((err: Error) => ctx.logger.warn({ err: err.message }, 'payments: the replaced card could not be detached'));
  return true;
}

/** POST /api/agents/:id/saved-card/confirm: after the card form confirmed the SetupIntent, the provider's word decides. */
export async function confirmCardSetup(ctx: PaymentsContext, actor: Actor, agentId: number, setupIntentId: string): Promise<SavedCardView> {
  await getAccessibleAgent(actor, agentId, 'signed_in');
  const row = (await ctx.db(TABLE).where({ agentId }).first()) as CardRow | undefined;
  const provider = row && ctx.providers.of(row.provider);
  if (!row || !provider) throw setupNotFound();
  const si = await askProvider(ctx.logger, 'retrieve setup intent', () => provider.retrieveSetupIntent(setupIntentId));
  // Someone else's SetupIntent (another customer) is as unknown as a missing one.
  if (!si || si.customerId !== row.customerId || si.metadata.agentId !== String(agentId)) throw setupNotFound();
  if (si.status !== 'succeeded') throw cardNotSaved(si.lastSetupError);
  await saveCardFromSetup(ctx, provider, si);
  return { card: await savedCardOf(ctx.db, agentId), provider: ctx.providers.active.name };
}

/** DELETE /api/agents/:id/saved-card: the card is detached at the provider and forgotten here. */
export async function removeSavedCard(ctx: PaymentsContext, actor: Actor, agentId: number): Promise<SavedCardView> {
  await getAccessibleAgent(actor, agentId, 'signed_in');
  const row = (await ctx.db(TABLE).where({ agentId }).first()) as CardRow | undefined;
  if (row?.paymentMethodId) {
    const provider = ctx.providers.of(row.provider);
    if (provider) await askProvider(ctx.logger, 'detach card', () => provider.detachPaymentMethod(row.paymentMethodId!));
    await ctx.db(TABLE).where({ agentId }).update({ paymentMethodId: null, brand: null, last4: null, expMonth: null, expYear: null, savedAt: null, updatedAt: ctx.db.fn.now() });
  }
  return { card: null, provider: ctx.providers.active.name };
}

export type SavedCardChargeOutcome = 'succeeded' | 'already_paid' | 'authentication_required' | 'failed' | 'no_card' | 'canceled';

export interface SavedCardCharge {
  outcome: SavedCardChargeOutcome;
  /** The provider's words for a failure ("Your card was declined."). */
  message: string | null;
  campaignStatus: CampaignStatus;
}

/**
 * Charge the agent's saved card for a campaign, with the agent away (autopilot at launchAt). The same
 * payment row and idempotency key as a checkout of the campaign (one per campaign), the same settlement:
 * paid → the campaign is paid and its launch job enqueued, once, by the existing path. A payment that has
 * an intent already (a checkout began, or an earlier attempt) is confirmed with the card, never doubled.
 * - authentication_required: nothing is paid; the intent waits for the agent on the checkout page.
 * - failed: nothing is paid; the payment keeps the provider's message.
 * Provider outages throw (the caller retries); nothing else does.
 */
export async function chargeSavedCard(ctx: PaymentsContext, input: { campaignId: number; reason: string }): Promise<SavedCardCharge> {
  const { db, logger } = ctx;
  const seen = await getCampaignForPayment(input.campaignId);
  if (!seen) throw notFound('campaign');
  if (PAID_STATUSES.includes(seen.status)) return { outcome: 'already_paid', message: null, campaignStatus: seen.status };
  if (seen.status === 'canceled') return { outcome: 'canceled', message: null, campaignStatus: seen.status };
  const row = (await db(TABLE).where({ agentId: seen.agentId }).first()) as CardRow | undefined;
  const provider = row?.paymentMethodId ? ctx.providers.of(row.provider) : undefined;
  if (!row?.paymentMethodId || !provider) return { outcome: 'no_card', message: null, campaignStatus: seen.status };

  const prepared = await db.transaction((trx) => preparePayment(trx, input.campaignId, provider.name));
  let payment: Payment = prepared.payment;
  const status = async () => (await getCampaignForPayment(input.campaignId))!.status;
  if (payment.status === 'succeeded') return { outcome: 'already_paid', message: null, campaignStatus: await status() };
  const moved = await paymentOnProvider(ctx, payment, provider, input.reason);
  if (moved === 'paid') return { outcome: 'already_paid', message: null, campaignStatus: await status() };
  payment = moved;

  const existing = payment.providerPaymentId ? await askProvider(logger, 'retrieve', () => provider.retrieve(payment.providerPaymentId!)) : null;
  if (existing?.status === 'succeeded') {
    await settleIfPaid(ctx, provider, payment, existing, input.reason);
    return { outcome: 'already_paid', message: null, campaignStatus: await status() };
  }
  const charge = await askProvider(logger, 'charge saved card', () =>
    provider.chargeOffSession({
      customerId: row.customerId,
      paymentMethodId: row.paymentMethodId!,
      amountCents: payment.amountCents,
      currency: payment.currency,
      campaignId: payment.campaignId,
      idempotencyKey: payment.idempotencyKey,
      intentId: existing?.id ?? null,
    }),
  );
  await Payment.query().patch({ providerPaymentId: charge.intent.id }).where({ id: payment.id }).whereNull('providerPaymentId');
  payment.providerPaymentId = charge.intent.id;
  logger.info({ campaignId: payment.campaignId, provider: provider.name, intentId: charge.intent.id, outcome: charge.outcome }, 'payments: saved card charged off-session');
  if (charge.outcome === 'succeeded') {
    const settled = await settleIfPaid(ctx, provider, payment, charge.intent, input.reason);
    if (!settled) {
      logger.error({ campaignId: payment.campaignId, intentId: charge.intent.id }, 'payments: an off-session charge succeeded for another amount or campaign');
      return { outcome: 'failed', message: 'The payment did not match this campaign.', campaignStatus: await status() };
    }
    return { outcome: 'succeeded', message: null, campaignStatus: settled.status };
  }
  // A succeeded payment never goes back; anything else records why.
  await db('payments')
    .where({ id: payment.id })
    .whereNot({ status: 'succeeded' })
    .update({ status: charge.outcome === 'authentication_required' ? 'requires_action' : 'failed', failureMessage: charge.message, updatedAt: db.fn.now() });
  return { outcome: charge.outcome, message: charge.message, campaignStatus: await status() };
}
