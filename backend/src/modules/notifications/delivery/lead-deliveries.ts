import type { Knex } from 'knex';
import type { LeadDelivery } from '@app/contracts';
import type { ReadCaches } from '../../../platform/cache/read-cache';
import type { Config } from '../../../platform/config';
import type { Queue } from '../../../platform/jobs/queue';
import { publicOrigin } from '../emails/templates';
import { activeChannels, loadSettings, type SettingsRow } from '../settings/settings.service';
import { createMessages } from './deliver-message';

/** What the leads module hands over when it stores a lead: the lead and its listing as they are now. */
export interface LeadForDelivery {
  id: number;
  agentId: number;
  listingId: number;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  source: string;
  interestedInTour: boolean;
  interestedInSimilar: boolean;
  createdAt: Date | string;
  listing: {
    mlsId: string;
    address: string;
    city: string;
    state: string;
    postalCode: string | null;
    /** Whole USD, the listing's wire price ("450000"). */
    price: string | number;
    bedrooms?: number | null;
    bathrooms?: string | number | null;
    squareFeet?: number | null;
    imageUrl?: string | null;
  };
}

/** Standard Webhooks bodies stay well under 20 KB; a long message is cut to fit. */
export const MAX_BODY_BYTES = 20 * 1024;

export function toLeadDelivery(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, lead: LeadForDelivery): LeadDelivery {
  const l = lead.listing;
  const snapshot: LeadDelivery = {
    agentId: lead.agentId,
    lead: {
      id: lead.id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone ?? null,
      message: lead.message ?? '',
      source: lead.source,
      interestedInTour: lead.interestedInTour,
      interestedInSimilar: lead.interestedInSimilar,
      createdAt: new Date(lead.createdAt).toISOString(),
    },
    listing: {
      id: lead.listingId,
      mlsId: l.mlsId,
      address: l.address,
      city: l.city,
      state: l.state,
      postalCode: l.postalCode ?? null,
      price: String(l.price),
      bedrooms: l.bedrooms ?? null,
      bathrooms: l.bathrooms == null ? null : String(l.bathrooms),
      squareFeet: l.squareFeet ?? null,
      imageUrl: l.imageUrl ?? null,
      url: `${publicOrigin(config)}/listing/${encodeURIComponent(l.mlsId)}`,
    },
  };
  // The envelope ({type, timestamp, data}) adds under 100 bytes; keep a margin for it.
  const overflow = Buffer.byteLength(JSON.stringify(snapshot)) - (MAX_BODY_BYTES - 512);
  if (overflow > 0) {
    const msg = snapshot.lead.message;
    snapshot.lead.message = `${Buffer.from(msg).subarray(0, Math.max(0, Buffer.byteLength(msg) - overflow - 3)).toString('utf8').replace(/\uFFFD+$/, '')}…`;
  }
  return snapshot;
}

/**
 * Called by the leads module inside the transaction that stores the leads (one, or several sent at the same
 * moment): keep a snapshot of each lead and its listing (retries and the daily digest send exactly this), and
 * enqueue one delivery job per channel its agent has on (all snapshots in one insert, all messages in one
 * insert, all jobs in one enqueue). A rolled-back lead is never delivered; a lead handed over twice is
 * delivered once.
 *
 * The agents' settings come from the read cache: they are the agent's choices at the time of the lead,
 * and one saved a few seconds ago in another process (READ_CACHE_MAX_TTL_MS at most; at once in this
 * one) is harmless to miss. Each attempt reads the channel's URL and secret again when it runs.
 */
export async function enqueueLeadDeliveries(
  deps: { queue: Pick<Queue, 'sendMany'>; config: Pick<Config, 'PUBLIC_URL' | 'PORT'>; caches: ReadCaches },
  trx: Knex.Transaction,
  leads: LeadForDelivery | readonly LeadForDelivery[],
): Promise<void> {
  const all = Array.isArray(leads) ? (leads as readonly LeadForDelivery[]) : [leads as LeadForDelivery];
  if (all.length === 0) return;
  // Read on the transaction's own connection (it writes no settings, so it sees what any other would):
  // taking a second connection while this one is held could starve the pool under load.
  const settingsCache = deps.caches.named<SettingsRow>('notification-settings', ['notification_settings']);
  const settings = new Map<number, SettingsRow>();
  for (const agentId of new Set(all.map((l) => l.agentId))) {
    settings.set(agentId, await settingsCache.get(String(agentId), () => loadSettings(trx, agentId)));
  }
  const snapshots = new Map(all.map((lead) => [lead.id, toLeadDelivery(deps.config, lead)]));
  const inserted: { leadId: string | number }[] = await trx('notificationLeads')
    .insert(
      [...snapshots].map(([leadId, snapshot]) => {
        const s = settings.get(snapshot.agentId)!;
        return { leadId, agentId: snapshot.agentId, snapshot: JSON.stringify(snapshot), digestDue: s.emailNotifications && !s.instantNotifications };
      }),
    )
    .onConflict('leadId')
    .ignore()
    .returning('leadId');
  const messages = inserted.flatMap(({ leadId }) => {
    const snapshot = snapshots.get(Number(leadId))!;
    const payload = { type: 'lead.created', timestamp: snapshot.lead.createdAt, data: snapshot };
    return activeChannels(settings.get(snapshot.agentId)!).map((channel) => ({ agentId: snapshot.agentId, leadId: snapshot.lead.id, kind: 'lead.created' as const, channel, payload }));
  });
  await createMessages(deps.queue, trx, messages);
}
