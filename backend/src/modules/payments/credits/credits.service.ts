import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { MIN_CHARGE_CENTS, type AgentCredits, type CreditMethod } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { Queue } from '../../../platform/jobs/queue';
import { refundCreditJob } from './refund-credit.job';

/**
 * Credits for under-delivery (DESIGN §7: they belong to payments). A campaign's settlement (the reports
 * module) grants its credit here, in its own transaction: one campaign_credits row per campaign (unique),
 * paid as a partial refund of the campaign's payment (a job: the provider is called outside the
 * transaction, with a per-campaign idempotency key) or as account credit (an append-only ledger entry). The
 * balance is the ledger's sum; the agent's next checkout uses it (applyCreditAtCheckout) and its settlement
 * spends it (spendAppliedCredit). Account credit is serialised per agent by a transaction-level advisory lock.
 */

/** pg_advisory_xact_lock(CREDIT_LOCK, agent id): checkouts and settlements of one agent's credit, one at a time. */
const CREDIT_LOCK = 26_001;

export async function lockAgentCredit(trx: Knex.Transaction, agentId: number): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?, ?)', [CREDIT_LOCK, agentId]);
}

export async function creditBalanceCents(db: Db | Knex.Transaction, agentId: number): Promise<number> {
  const row = await db('creditLedger').where({ agentId }).sum({ cents: 'amountCents' }).first();
  return Number(row?.cents ?? 0);
}

export async function creditPreference(db: Db | Knex.Transaction, agentId: number): Promise<CreditMethod> {
  const row = await db('creditPreferences').where({ agentId }).first('method');
  return (row?.method as CreditMethod | undefined) ?? 'refund';
}

export async function setCreditPreference(db: Db, agentId: number, method: CreditMethod): Promise<void> {
  await db('creditPreferences').insert({ agentId, method, updatedAt: db.fn.now() }).onConflict('agentId').merge();
}

/** A settled campaign's credit, as the reports module hands it over. */
export interface CreditGrant {
  campaignId: number;
  agentId: number;
  amountCents: number;
  priceCents: number;
  promised: number;
  delivered: number;
}

export interface GrantedCredit {
  campaignId: number;
  id: number;
  method: CreditMethod;
  amountCents: number;
}

/**
 * Grants the credits of settled campaigns, in the settlement's transaction: each campaign once (a campaign
 * that already has its credit is skipped). The method is the agent's preference (refund unless they chose
 * account credit); a campaign without a succeeded payment to refund gets account credit. Refunds are made by
 * payments.refund-credit jobs sent in this transaction; account credit is a ledger entry at once.
 */
export async function grantCredits(trx: Knex.Transaction, queue: Pick<Queue, 'sendMany'>, grants: CreditGrant[]): Promise<GrantedCredit[]> {
  const wanted = grants.filter((g) => g.amountCents > 0);
  if (!wanted.length) return [];
  const agentIds = [...new Set(wanted.map((g) => g.agentId))];
  const prefs = new Map<number, CreditMethod>(
    (await trx('creditPreferences').whereIn('agentId', agentIds).select('agentId', 'method')).map((r: { agentId: number; method: CreditMethod }) => [r.agentId, r.method]),
  );
  const payments = new Map<number, number>(
    (await trx('payments').whereIn('campaignId', wanted.map((g) => g.campaignId)).where({ status: 'succeeded' }).whereNotNull('providerPaymentId').select('campaignId', 'id')).map(
      (r: { campaignId: number; id: number }) => [r.campaignId, r.id],
    ),
  );
  const rows = wanted.map((g) => {
    const paymentId = payments.get(g.campaignId) ?? null;
    const method: CreditMethod = paymentId !== null && (prefs.get(g.agentId) ?? 'refund') === 'refund' ? 'refund' : 'account_credit';
    return {
      campaignId: g.campaignId,
      agentId: g.agentId,
      paymentId,
      method,
      amountCents: g.amountCents,
      priceCents: g.priceCents,
      promised: g.promised,
      delivered: g.delivered,
      status: method === 'refund' ? 'pending' : 'succeeded',
      succeededAt: method === 'refund' ? null : trx.fn.now(),
      // One key per campaign credit, fixed here: every refund call for it sends the same key. The random part
      // keeps keys of different databases apart (Stripe remembers keys per account).
      idempotencyKey: `campaign-${g.campaignId}-credit-${crypto.randomBytes(6).toString('hex')}`,
    };
  });
  const inserted: { id: number; campaignId: number; agentId: number; method: CreditMethod; amountCents: number }[] = await trx('campaignCredits')
    .insert(rows)
    .onConflict('campaignId')
    .ignore()
    .returning(['id', 'campaignId', 'agentId', 'method', 'amountCents']);
  const ledger = inserted.filter((c) => c.method === 'account_credit').map((c) => ({ agentId: c.agentId, kind: 'credit', amountCents: c.amountCents, campaignCreditId: c.id }));
  if (ledger.length) await trx('creditLedger').insert(ledger);
  const refunds = inserted.filter((c) => c.method === 'refund');
  if (refunds.length) await queue.sendMany(refundCreditJob, refunds.map((c) => ({ creditId: c.id })), { trx });
  return inserted.map((c) => ({ campaignId: c.campaignId, id: c.id, method: c.method, amountCents: c.amountCents }));
}

/**
 * At checkout (in its transaction, the agent's credit locked): this checkout takes the agent's whole
 * available balance, up to the budget less Stripe's smallest charge, from any other unpaid checkout of theirs
 * (one that is paid later buys what it was charged: payments' "a payment settled at an older amount buys that
 * amount"). Returns the credit applied; the payment row's amount is the budget less it.
 */
export async function applyCreditAtCheckout(trx: Knex.Transaction, paymentId: number, agentId: number, budgetCents: number): Promise<number> {
  await lockAgentCredit(trx, agentId);
  await trx('payments').where({ agentId }).whereNot({ id: paymentId }).whereNot({ status: 'succeeded' }).where('creditAppliedCents', '>', 0).update({ creditAppliedCents: 0, updatedAt: trx.fn.now() });
  const balance = await creditBalanceCents(trx, agentId);
  const applied = Math.max(0, Math.min(balance, budgetCents - MIN_CHARGE_CENTS));
  await trx('payments')
    .where({ id: paymentId })
    .whereNot({ status: 'succeeded' })
    .update({ agentId, creditAppliedCents: applied, amountCents: budgetCents - applied, updatedAt: trx.fn.now() });
  return applied;
}

/** A paid checkout spends the credit it applied, once (the ledger's unique payment id), in the settling transaction. */
export async function spendAppliedCredit(trx: Knex.Transaction, paymentId: number): Promise<number> {
  const p = await trx('payments').where({ id: paymentId }).first('agentId', 'creditAppliedCents');
  if (!p?.agentId || !(p.creditAppliedCents > 0)) return 0;
  await lockAgentCredit(trx, p.agentId);
  const [row] = await trx('creditLedger').insert({ agentId: p.agentId, kind: 'applied', amountCents: -p.creditAppliedCents, paymentId }).onConflict('paymentId').ignore().returning('id');
  return row ? p.creditAppliedCents : 0;
}

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

/** GET /api/agents/{id}/credits (access checked by the caller). */
export async function agentCredits(db: Db, agentId: number): Promise<AgentCredits> {
  const [credits, ledger, balance, preference] = await Promise.all([
    db('campaignCredits').where({ agentId }).orderBy('id', 'desc').limit(200).select('id', 'campaignId', 'method', 'amountCents', 'status', 'promised', 'delivered', 'createdAt', 'succeededAt'),
    db('creditLedger as l')
      .leftJoin('campaignCredits as c', 'c.id', 'l.campaignCreditId')
      .leftJoin('payments as p', 'p.id', 'l.paymentId')
      .where('l.agentId', agentId)
      .orderBy('l.id', 'desc')
      .limit(200)
      .select('l.id', 'l.kind', 'l.amountCents', 'l.createdAt', db.raw('coalesce(c.campaign_id, p.campaign_id) as campaign_id')),
    creditBalanceCents(db, agentId),
    creditPreference(db, agentId),
  ]);
  return {
    balanceCents: balance,
    preference,
    credits: credits.map((c: Record<string, any>) => ({ ...c, createdAt: iso(c.createdAt)!, succeededAt: iso(c.succeededAt) })) as AgentCredits['credits'],
    ledger: ledger.map((l: Record<string, any>) => ({ id: Number(l.id), kind: l.kind, amountCents: l.amountCents, campaignId: l.campaignId ?? null, createdAt: iso(l.createdAt)! })),
  };
}

/** Ops CLI: every credit, newest first. */
export async function listCredits(db: Db, limit = 50): Promise<Record<string, unknown>[]> {
  return db('campaignCredits').orderBy('id', 'desc').limit(limit).select('id', 'campaignId', 'agentId', 'method', 'amountCents', 'status', 'promised', 'delivered', 'providerRefundId', 'failureMessage', 'createdAt');
}

/** The credit of each campaign that has one (reports: the dashboard's report cards). */
export async function creditsOfCampaigns(db: Db, campaignIds: number[]): Promise<Map<number, { amountCents: number; method: CreditMethod; status: 'pending' | 'succeeded' | 'failed' }>> {
  const out = new Map<number, { amountCents: number; method: CreditMethod; status: 'pending' | 'succeeded' | 'failed' }>();
  if (!campaignIds.length) return out;
  for (const r of await db('campaignCredits').whereIn('campaignId', campaignIds).select('campaignId', 'amountCents', 'method', 'status')) {
    out.set(r.campaignId, { amountCents: r.amountCents, method: r.method, status: r.status });
  }
  return out;
}
