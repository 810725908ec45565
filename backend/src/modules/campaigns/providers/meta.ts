import { OutboundError, outboundFetch } from '../../../platform/outbound/http';
import type { Logger } from '../../../platform/logger';
import {
  AdPlatformError,
  type AdPlatform,
  type AdPlatformDeps,
  type AdSetSpec,
  type AdSpec,
  type AdTargeting,
  type CampaignSpec,
  type CreativeSpec,
  type Delivery,
} from './ad-platform';
import { loadImageBytes } from './image-source';

/**
 * Meta Marketing API (Graph). Every call is one documented endpoint:
 *   POST /act_{id}/campaigns, /adsets, /adimages, /adcreatives, /ads
 *   GET  /act_{id}/campaigns|adsets|ads?filtering=[{field:"name",operator:"EQUAL",value}]
 *   GET  /search?type=adinterest&q=…          (interest names → ids for flexible_spec)
 *   GET  /{campaign-id}/insights?fields=impressions,reach,clicks&date_preset=maximum
 *   POST /{campaign-id} status=PAUSED | ACTIVE  (pause and resume; Meta answers {success: true})
 * Errors come as {error: {message, type, code, error_subcode, error_user_msg, is_transient, fbtrace_id}}.
 * The access token goes in the Authorization header, never in a URL, and is never logged.
 */

/** Throttling codes: application (4), user (17), page (32), hourly (613), ads management (80004) and its siblings. */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80000, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);
/** "An unknown error occurred" (1) and "Service temporarily unavailable" (2) are Meta's own transient codes. */
const TRANSIENT_CODES = new Set([1, 2]);

interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Interest name → Meta interest, per Graph URL; interests rarely change, so a process-wide cache saves a call per launch. */
const interestCache = new Map<string, { id: string; name: string } | null>();

export interface MetaOptions {
  graphUrl: string;
  version: string;
  accessToken: string;
  adAccountId: string;
  pageId: string | undefined;
  /** Origin our own image paths are fetched from (PUBLIC_URL, else this server on loopback). */
  selfOrigin: string;
  /** OUTBOUND_ALLOW_LOOPBACK: image URLs typed by agents may resolve to loopback (tests only). */
  allowLoopback?: boolean;
  timeoutMs: number;
  logger: Logger;
  signal?: AbortSignal;
}

export class MetaAdPlatform implements AdPlatform {
  readonly name = 'meta' as const;
  private readonly account: string;

  constructor(private readonly o: MetaOptions) {
    this.account = o.adAccountId.startsWith('act_') ? o.adAccountId : `act_${o.adAccountId}`;
  }

  static fromConfig({ config, logger, signal }: AdPlatformDeps): MetaAdPlatform {
    if (!config.META_ACCESS_TOKEN || !config.META_AD_ACCOUNT_ID) throw new AdPlatformError('Meta is not configured (META_ACCESS_TOKEN, META_AD_ACCOUNT_ID)', false);
    return new MetaAdPlatform({
      graphUrl: config.META_GRAPH_URL,
      version: config.META_API_VERSION,
      accessToken: config.META_ACCESS_TOKEN,
      adAccountId: config.META_AD_ACCOUNT_ID,
      pageId: config.META_PAGE_ID,
      selfOrigin: config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`,
      allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK,
      timeoutMs: Math.max(config.OUTBOUND_TIMEOUT_MS, 15000),
      logger: logger.child({ provider: 'meta' }),
      signal,
    });
  }

  // ---- lookups by name (a crash between Meta's answer and our write) ----

  async findCampaign(name: string) {
    return (await this.findByName('campaigns', name))?.id;
  }

  async findAdSet(name: string, platformCampaignId: string) {
    const found = await this.findByName('adsets', name, 'id,name,campaign_id');
    return found && (!found.campaign_id || found.campaign_id === platformCampaignId) ? found.id : undefined;
  }

  async findAd(name: string, platformAdSetId: string) {
    const found = await this.findByName('ads', name, 'id,name,adset_id,creative{id}');
    if (!found || (found.adset_id && found.adset_id !== platformAdSetId)) return undefined;
    return { id: found.id, creativeId: (found.creative as { id?: string } | undefined)?.id };
  }

  private async findByName(edge: 'campaigns' | 'adsets' | 'ads', name: string, fields = 'id,name'): Promise<Record<string, any> | undefined> {
    const body = await this.graph('GET', `${this.account}/${edge}`, {
      fields,
      filtering: [{ field: 'name', operator: 'EQUAL', value: name }],
      limit: 25,
    });
    const rows = (body.data ?? []) as Record<string, any>[];
    return rows.find((r) => r.name === name);
  }

  // ---- creation ----

  async createCampaign(spec: CampaignSpec): Promise<string> {
    const body = await this.graph('POST', `${this.account}/campaigns`, {
      name: spec.name,
      objective: 'OUTCOME_AWARENESS',
      status: 'ACTIVE',
      special_ad_categories: spec.specialAdCategories,
      special_ad_category_country: [spec.country],
      buying_type: 'AUCTION',
      // The budget lives on the one ad set; Meta requires this to be explicit when the campaign has no budget.
      is_adset_budget_sharing_enabled: false,
    });
    return this.idOf(body, 'campaign');
  }

  async createAdSet(spec: AdSetSpec): Promise<string> {
    const body = await this.graph('POST', `${this.account}/adsets`, {
      name: spec.name,
      campaign_id: spec.platformCampaignId,
      daily_budget: String(spec.dailyBudgetCents),
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'IMPRESSIONS',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
      start_time: spec.startTime.toISOString(),
      end_time: spec.endTime.toISOString(),
      targeting: await this.targeting(spec.targeting),
      status: 'ACTIVE',
    });
    return this.idOf(body, 'ad set');
  }

  /**
   * Housing targeting (special ad category HOUSING): a custom location with a radius in miles and
   * interests. No age, gender or ZIP keys at all: Meta applies its special-category defaults (18–65+,
   * all genders). Advantage+ audience is set explicitly (required for detailed targeting since v23).
   */
  private async targeting(t: AdTargeting): Promise<Record<string, unknown>> {
    const place =
      'latitude' in t.location
        ? { latitude: t.location.latitude, longitude: t.location.longitude, radius: t.location.radiusMiles, distance_unit: 'mile' }
        : { address_string: t.location.address, radius: t.location.radiusMiles, distance_unit: 'mile' };
    const interests = await this.resolveInterests(t.interests);
    return {
      geo_locations: { custom_locations: [place] },
      ...(interests.length ? { flexible_spec: [{ interests }] } : {}),
      targeting_automation: { advantage_audience: 0 },
    };
  }

  /** Interest names → Meta's {id, name}; names Meta does not know are left out (and logged). */
  private async resolveInterests(names: string[]): Promise<{ id: string; name: string }[]> {
    const hits = await Promise.all(
      names.map(async (name) => {
        const key = `${this.o.graphUrl}|${name.toLowerCase()}`;
        let hit = interestCache.get(key);
        if (hit === undefined) {
          const body = await this.graph('GET', 'search', { type: 'adinterest', q: name, limit: 10 });
          const rows = (body.data ?? []) as { id?: string; name?: string }[];
          const match = rows.find((r) => r.name?.toLowerCase() === name.toLowerCase()) ?? rows[0];
          hit = match?.id && match.name ? { id: String(match.id), name: match.name } : null;
          interestCache.set(key, hit);
        }
        if (!hit) this.o.logger.warn({ interest: name }, 'Meta knows no interest by this name; left out of the targeting');
        return hit;
      }),
    );
    const out: { id: string; name: string }[] = [];
    for (const hit of hits) if (hit && !out.some((i) => i.id === hit.id)) out.push(hit);
    return out;
  }

  async createCreative(spec: CreativeSpec): Promise<string> {
    if (!this.o.pageId) throw new AdPlatformError('META_PAGE_ID is not configured: a Meta ad is published by a Facebook Page', false);
    const hashes = await Promise.all(spec.images.map((url) => this.uploadImage(url)));
    const callToAction = { type: spec.callToAction, value: { link: spec.link } };
    const linkData =
      spec.format === 'carousel'
        ? {
            link: spec.link,
            message: spec.primaryText,
            child_attachments: hashes.map((image_hash) => ({
              link: spec.link,
              image_hash,
              name: spec.headline,
              ...(spec.description ? { description: spec.description } : {}),
              call_to_action: callToAction,
            })),
            multi_share_optimized: true,
            multi_share_end_card: false,
            call_to_action: callToAction,
          }
        : {
            link: spec.link,
            message: spec.primaryText,
            name: spec.headline,
            ...(spec.description ? { description: spec.description } : {}),
            image_hash: hashes[0],
            call_to_action: callToAction,
          };
    const body = await this.graph('POST', `${this.account}/adcreatives`, {
      name: spec.name,
      object_story_spec: { page_id: this.o.pageId, link_data: linkData },
    });
    return this.idOf(body, 'creative');
  }

  /** POST /adimages with the bytes (base64): answers {images: {<name>: {hash, url}}}. Same bytes, same hash, so a retry re-uploads harmlessly. */
  private async uploadImage(url: string): Promise<string> {
    const bytes = await loadImageBytes(url, { selfOrigin: this.o.selfOrigin, allowLoopback: this.o.allowLoopback ?? false, signal: this.o.signal });
    const body = await this.graph('POST', `${this.account}/adimages`, { bytes: bytes.toString('base64') });
    const first = Object.values((body.images ?? {}) as Record<string, { hash?: string }>)[0];
    if (!first?.hash) throw new AdPlatformError('Meta answered the image upload without an image hash', true);
    return first.hash;
  }

  async createAd(spec: AdSpec): Promise<string> {
    const body = await this.graph('POST', `${this.account}/ads`, {
      name: spec.name,
      adset_id: spec.platformAdSetId,
      creative: { creative_id: spec.creativeId },
      status: 'ACTIVE',
    });
    return this.idOf(body, 'ad');
  }

  // ---- delivery ----

  async getDelivery(platformCampaignIds: string[]): Promise<Map<string, Delivery>> {
    const out = new Map<string, Delivery>();
    // A few at a time: insights calls count against the ads-insights rate limit.
    const queue = [...platformCampaignIds];
    const worker = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        let body: Record<string, any>;
        try {
          body = await this.graph('GET', `${encodeURIComponent(id)}/insights`, { fields: 'impressions,reach,clicks', date_preset: 'maximum' });
        } catch (err) {
          // One campaign Meta refuses (deleted in Ads Manager…) must not stop the others; throttling stops the pass.
          if (err instanceof AdPlatformError && !err.transient) {
            this.o.logger.warn({ platformCampaignId: id, err: err.message }, 'insights refused; skipped');
            continue;
          }
          throw err;
        }
        const row = ((body.data ?? []) as Record<string, string | undefined>[])[0];
        out.set(id, { impressions: toCount(row?.impressions), reach: toCount(row?.reach), clicks: toCount(row?.clicks) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
    return out;
  }

  // ---- pause and resume (the listing went under contract, or came back) ----

  async pauseCampaign(platformCampaignId: string): Promise<void> {
    await this.setStatus(platformCampaignId, 'PAUSED');
  }

  async resumeCampaign(platformCampaignId: string): Promise<void> {
    await this.setStatus(platformCampaignId, 'ACTIVE');
  }

  private async setStatus(platformCampaignId: string, status: 'PAUSED' | 'ACTIVE'): Promise<void> {
    const body = await this.graph('POST', encodeURIComponent(platformCampaignId), { status });
    if (body.success !== true) throw new AdPlatformError(`Meta did not confirm the campaign's status ${status}`, true);
  }

  // ---- HTTP ----

  private idOf(body: Record<string, unknown>, what: string): string {
    if (typeof body.id !== 'string' && typeof body.id !== 'number') throw new AdPlatformError(`Meta answered the ${what} creation without an id`, true);
    return String(body.id);
  }

  /** One Graph call. POST bodies are form-encoded with objects as JSON, the way the Graph API documents them. */
  private async graph(method: 'GET' | 'POST', path: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    const url = new URL(`${this.o.graphUrl.replace(/\/$/, '')}/${this.o.version}/${path}`);
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    if (method === 'GET') url.search = form.toString();
    const started = Date.now();
    let res: Response;
    try {
      res = await outboundFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.o.accessToken}`,
          accept: 'application/json',
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: method === 'POST' ? form.toString() : undefined,
        timeoutMs: this.o.timeoutMs,
        signal: this.o.signal,
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      const message = err instanceof OutboundError ? err.message : `Could not reach Meta: ${(err as Error).message}${cause ? ` (${cause})` : ''}`;
      throw new AdPlatformError(message, true);
    }
    const text = await res.text();
    let body: Record<string, any> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON (a proxy's error page) */
    }
    this.o.logger.debug({ method, path: url.pathname, status: res.status, ms: Date.now() - started }, 'meta call');
    if (res.ok && !body.error) return body;
    throw metaError(res.status, body.error as GraphError | undefined, text);
  }
}

function toCount(v: string | number | undefined): number {
  const n = Math.trunc(Number(v ?? 0));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Meta's error → AdPlatformError: rate limits, Meta's transient codes and 5xx are retried; other 4xx are not. */
export function metaError(status: number, e: GraphError | undefined, raw: string): AdPlatformError {
  if (!e || typeof e !== 'object') {
    return new AdPlatformError(`Meta answered ${status}: ${raw.slice(0, 200) || 'no body'}`, status >= 500 || status === 429, { status });
  }
  const code = typeof e.code === 'number' ? e.code : undefined;
  const transient = status >= 500 || status === 429 || e.is_transient === true || (code !== undefined && (RATE_LIMIT_CODES.has(code) || TRANSIENT_CODES.has(code)));
  const what = [e.message, e.error_user_msg && e.error_user_msg !== e.message ? e.error_user_msg : undefined].filter(Boolean).join(' — ');
  const tags = [code !== undefined ? `code ${code}${e.error_subcode ? `/${e.error_subcode}` : ''}` : undefined, e.fbtrace_id ? `fbtrace_id ${e.fbtrace_id}` : undefined]
    .filter(Boolean)
    .join(', ');
  return new AdPlatformError(`Meta: ${what || `HTTP ${status}`}${tags ? ` (${tags})` : ''}`, transient, {
    status,
    code,
    subcode: e.error_subcode,
    fbtraceId: e.fbtrace_id,
  });
}
