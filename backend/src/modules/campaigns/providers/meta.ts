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
  type CampaignInsights,
  type DailyInsight,
  type InsightsRequest,
  type InsightsResult,
} from './ad-platform';
import { loadImageBytes } from './image-source';

/**
 * Meta Marketing API (Graph). Every call is one documented endpoint:
 *   POST /act_{id}/campaigns, /adsets, /adimages, /adcreatives, /ads
 *   GET  /act_{id}/campaigns|adsets|ads?filtering=[{field:"name",operator:"EQUAL",value}]
 *   GET  /search?type=adinterest&q=…          (interest names → ids for flexible_spec)
 *   GET  /act_{id}/insights?level=campaign&filtering=[campaign.id IN …]: time_increment=1 and date_preset=maximum
 *   POST /{campaign-id} status=PAUSED                                  (stop at the flight's end)
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

  /**
   * Insights for many campaigns in few calls: the ad account's insights at level=campaign, filtered to up to
   * INSIGHTS_IDS_PER_CALL campaign ids, once with time_increment=1 (daily rows since the earliest start of
   * the group) and once with date_preset=maximum (lifetime figures: reach is not additive over days); each
   * followed page by page (paging.cursors.after, never the `next` URL as given). Up to 4 groups at a time.
   * After every answer the x-business-use-case-usage header is read: from BACK_OFF_PERCENT on, no further
   * call is made and the answer says how long to wait (Meta's estimated_time_to_regain_access, at least 5
   * minutes); a throttling error (codes 4, 17, 613, 80000…) ends the read the same way.
   */
  async getInsights(campaigns: InsightsRequest[]): Promise<InsightsResult> {
    const out = new Map<string, CampaignInsights>();
    const groups: InsightsRequest[][] = [];
    for (let i = 0; i < campaigns.length; i += INSIGHTS_IDS_PER_CALL) groups.push(campaigns.slice(i, i + INSIGHTS_IDS_PER_CALL));
    const state = { calls: 0, usagePercent: undefined as number | undefined, backOffSeconds: undefined as number | undefined };
    const note = (usage: Usage | undefined) => {
      if (!usage) return;
      state.usagePercent = Math.max(state.usagePercent ?? 0, usage.percent);
      if (usage.percent >= BACK_OFF_PERCENT) state.backOffSeconds = Math.max(state.backOffSeconds ?? 0, usage.regainSeconds, MIN_BACK_OFF_SECONDS);
    };
    const pages = async (params: Record<string, unknown>, each: (row: Record<string, any>) => void) => {
      let after: string | undefined;
      do {
        if (state.backOffSeconds !== undefined) throw new BackOff();
        let answer: { body: Record<string, any>; usage?: Usage };
        try {
          answer = await this.graphWithUsage('GET', `${this.account}/insights`, { ...params, ...(after ? { after } : {}) });
        } catch (err) {
          state.calls++;
          if (err instanceof AdPlatformError && err.details.code !== undefined && RATE_LIMIT_CODES.has(err.details.code)) {
            note({ percent: 100, regainSeconds: MIN_BACK_OFF_SECONDS });
            throw new BackOff();
          }
          throw err;
        }
        state.calls++;
        note(answer.usage);
        for (const row of (answer.body.data ?? []) as Record<string, any>[]) each(row);
        const next = answer.body.paging?.next;
        after = next ? (answer.body.paging?.cursors?.after as string | undefined) : undefined;
      } while (after);
    };
    const entry = (id: string) => {
      let e = out.get(id);
      if (!e) out.set(id, (e = { lifetime: { impressions: 0, reach: 0, clicks: 0, linkClicks: 0, spendCents: 0 }, days: [] }));
      return e;
    };
    const readGroup = async (group: InsightsRequest[]) => {
      const filtering = [{ field: 'campaign.id', operator: 'IN', value: group.map((c) => c.platformCampaignId) }];
      const since = new Date(Math.min(...group.map((c) => c.since.getTime()))).toISOString().slice(0, 10);
      const until = new Date().toISOString().slice(0, 10);
      const found = new Map<string, DailyInsight[]>();
      await pages(
        { level: 'campaign', fields: DAILY_FIELDS, time_increment: 1, time_range: { since, until: until < since ? since : until }, filtering, limit: INSIGHTS_PAGE_SIZE },
        (row) => {
          const id = String(row.campaign_id ?? '');
          if (!id || !row.date_start) return;
          found.set(id, [...(found.get(id) ?? []), toDaily(row)]);
        },
      );
      await pages({ level: 'campaign', fields: LIFETIME_FIELDS, date_preset: 'maximum', filtering, limit: INSIGHTS_PAGE_SIZE }, (row) => {
        const id = String(row.campaign_id ?? '');
        if (!id) return;
        entry(id).lifetime = {
          impressions: toCount(row.impressions),
          reach: toCount(row.reach),
          clicks: toCount(row.clicks),
          linkClicks: toCount(row.inline_link_clicks),
          spendCents: toCents(row.spend),
        };
      });
      for (const [id, days] of found) entry(id).days = days.sort((a, b) => a.day.localeCompare(b.day));
    };
    const queue = [...groups];
    const worker = async () => {
      for (let g = queue.shift(); g; g = queue.shift()) {
        try {
          await readGroup(g);
        } catch (err) {
          if (err instanceof BackOff) return;
          // One group Meta refuses (a campaign deleted in Ads Manager…) must not stop the others.
          if (err instanceof AdPlatformError && !err.transient) {
            this.o.logger.warn({ campaigns: g.length, err: err.message }, 'insights refused; group skipped');
            continue;
          }
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
    if (state.backOffSeconds !== undefined) this.o.logger.warn({ usagePercent: state.usagePercent, backOffSeconds: state.backOffSeconds }, 'Meta rate limit near: insights paused');
    return { campaigns: out, calls: state.calls, usagePercent: state.usagePercent, backOffSeconds: state.backOffSeconds };
  }

  /** POST /{campaign-id} status=PAUSED: Meta stops delivery; pausing a paused campaign changes nothing. */
  async stop(platformCampaignId: string): Promise<void> {
    await this.graph('POST', encodeURIComponent(platformCampaignId), { status: 'PAUSED' });
  }

  // ---- HTTP ----

  private idOf(body: Record<string, unknown>, what: string): string {
    if (typeof body.id !== 'string' && typeof body.id !== 'number') throw new AdPlatformError(`Meta answered the ${what} creation without an id`, true);
    return String(body.id);
  }

  /** One Graph call. POST bodies are form-encoded with objects as JSON, the way the Graph API documents them. */
  private async graph(method: 'GET' | 'POST', path: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    return (await this.graphWithUsage(method, path, params)).body;
  }

  /** A Graph call, with the rate-limit usage its answer reported (x-business-use-case-usage). */
  private async graphWithUsage(method: 'GET' | 'POST', path: string, params: Record<string, unknown>): Promise<{ body: Record<string, any>; usage?: Usage }> {
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
    if (res.ok && !body.error) return { body, usage: parseBusinessUseCaseUsage(res.headers.get('x-business-use-case-usage')) };
    throw metaError(res.status, body.error as GraphError | undefined, text);
  }
}

/** Campaign ids per insights call (the filter's IN list), and rows per page. */
export const INSIGHTS_IDS_PER_CALL = 50;
export const INSIGHTS_PAGE_SIZE = 500;
/** From this share of a rate limit on (any of call_count, total_cputime, total_time), no more calls. */
export const BACK_OFF_PERCENT = 90;
const MIN_BACK_OFF_SECONDS = 300;
const DAILY_FIELDS = 'campaign_id,date_start,date_stop,impressions,reach,clicks,inline_link_clicks,ctr,frequency,spend';
const LIFETIME_FIELDS = 'campaign_id,impressions,reach,clicks,inline_link_clicks,frequency,spend';

class BackOff extends Error {}

export interface Usage {
  /** The highest of call_count, total_cputime and total_time over every business use case reported. */
  percent: number;
  /** Meta's estimated_time_to_regain_access (minutes), in seconds. */
  regainSeconds: number;
}

/**
 * x-business-use-case-usage: {"<business id>": [{"type": "ads_insights", "call_count": 28, "total_cputime": 25,
 * "total_time": 25, "estimated_time_to_regain_access": 0}, …]}. Undefined when absent or unreadable.
 */
export function parseBusinessUseCaseUsage(header: string | null): Usage | undefined {
  if (!header) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  let percent = 0;
  let regain = 0;
  for (const list of Object.values(parsed as Record<string, unknown>)) {
    for (const u of Array.isArray(list) ? list : []) {
      const n = (k: string) => (typeof u?.[k] === 'number' && Number.isFinite(u[k]) ? (u[k] as number) : 0);
      percent = Math.max(percent, n('call_count'), n('total_cputime'), n('total_time'));
      regain = Math.max(regain, n('estimated_time_to_regain_access'));
    }
  }
  return { percent, regainSeconds: regain * 60 };
}

function toDaily(row: Record<string, any>): DailyInsight {
  const num = (v: unknown) => (v === undefined || v === null || !Number.isFinite(Number(v)) ? null : Number(v));
  return {
    day: String(row.date_start).slice(0, 10),
    impressions: toCount(row.impressions),
    reach: toCount(row.reach),
    clicks: toCount(row.clicks),
    linkClicks: toCount(row.inline_link_clicks),
    spendCents: toCents(row.spend),
    ctr: num(row.ctr),
    frequency: num(row.frequency),
  };
}

/** Meta's spend is a decimal string in the account's currency ("12.34"). */
function toCents(v: string | number | undefined): number {
  const n = Math.round(Number(v ?? 0) * 100);
  return Number.isFinite(n) && n > 0 ? n : 0;
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
