import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';

/**
 * Seller links, /report/{token}. A token is 128 bits: the first 16 bytes of HMAC-SHA256(key, salt) in
 * base64url, where the salt is 16 random bytes kept with the link and the key is derived from SESSION_SECRET.
 * The table keeps the salt and SHA-256(token): a lookup hashes the token it is given; a copy of the table
 * alone yields no token; the server can show the agent the link again. Revoking is for good: the token's
 * hash stays, marked revoked, and a new link has a new salt.
 */
export class ReportLinks {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = crypto.createHmac('sha256', secret).update('listing-ads/report-links/v1').digest();
  }

  /**
   * SESSION_SECRET is always set by the server and the ops CLI (generated into DATA_DIR when not configured); a
   * process without one (a bare script) derives links with a key of its own, valid only in that process.
   */
  static fromConfig(config: Pick<Config, 'SESSION_SECRET'>): ReportLinks {
    return new ReportLinks(config.SESSION_SECRET ?? crypto.randomBytes(32).toString('hex'));
  }

  tokenFor(salt: Buffer): string {
    return crypto.createHmac('sha256', this.key).update(salt).digest().subarray(0, 16).toString('base64url');
  }

  static hashOf(token: string): Buffer {
    return crypto.createHash('sha256').update(token).digest();
  }

  /** New live links for campaigns that have none (in the caller's transaction); existing live links stay. */
  async create(trx: Knex.Transaction | Db, links: { campaignId: number; agentId: number }[]): Promise<void> {
    if (!links.length) return;
    const rows = links.map((l) => {
      const salt = crypto.randomBytes(16);
      return { campaignId: l.campaignId, agentId: l.agentId, salt, tokenHash: ReportLinks.hashOf(this.tokenFor(salt)) };
    });
    await trx.raw(
      `insert into report_links (campaign_id, agent_id, salt, token_hash)
       select * from unnest(?::int[], ?::int[], ?::bytea[], ?::bytea[])
       on conflict (campaign_id) where revoked_at is null do nothing`,
      [rows.map((r) => r.campaignId), rows.map((r) => r.agentId), rows.map((r) => r.salt), rows.map((r) => r.tokenHash)] as never,
    );
  }

  /** The live link's token of each campaign (absent: none, or revoked). */
  async liveTokens(db: Db | Knex.Transaction, campaignIds: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (!campaignIds.length) return out;
    const rows = await db('reportLinks').whereIn('campaignId', campaignIds).whereNull('revokedAt').select('campaignId', 'salt');
    for (const r of rows) out.set(r.campaignId, this.tokenFor(r.salt));
    return out;
  }

  /** The campaign a live token opens, or undefined (unknown, malformed or revoked: the caller answers 404 alike). */
  async resolve(db: Db, token: string): Promise<number | undefined> {
    if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return undefined;
    const row = await db('reportLinks').where({ tokenHash: ReportLinks.hashOf(token) }).whereNull('revokedAt').first('campaignId');
    return row?.campaignId;
  }

  async revoke(db: Db, campaignId: number): Promise<boolean> {
    const n = await db('reportLinks').where({ campaignId }).whereNull('revokedAt').update({ revokedAt: db.fn.now() });
    return n > 0;
  }
}

export function sellerUrl(origin: string, token: string): string {
  return `${origin}/report/${token}`;
}

export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}
