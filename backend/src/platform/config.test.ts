import { loadConfig, ConfigError, publicOrigin } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded providers with no keys', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.providers).toEqual({
      database: 'embedded-postgres',
      mls: 'demo',
      ads: 'sandbox',
      payments: 'local',
      uploads: 'local',
      ai: 'builtin',
      email: 'outbox',
      googleLogin: 'disabled',
      sms: 'outbox',
    });
  });

  it('switches each part to the real provider when its credentials are present', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      RESO_BASE_URL: 'https://api.mls.example/odata',
      RESO_BEARER_TOKEN: 'tok',
      META_ACCESS_TOKEN: 'meta',
      META_AD_ACCOUNT_ID: 'act_1',
      META_PAGE_ID: 'page_1',
      PUBLIC_URL: 'https://ads.example.com',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      GCS_BUCKET: 'bucket',
      OPENAI_API_KEY: 'sk-1',
      SMTP_URL: 'smtp://mail:1025',
      GOOGLE_CLIENT_ID: 'gid',
      GOOGLE_CLIENT_SECRET: 'gsecret',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_MESSAGING_SERVICE_SID: 'MG1',
    });
    expect(Object.values(c.providers)).toEqual(['postgres', 'reso', 'meta', 'stripe', 'gcs', 'openai', 'smtp', 'google', 'twilio']);
  });

  it('refuses Twilio without its token, a sender or PUBLIC_URL, and Real Geeks with half its credentials', () => {
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_FROM_NUMBER: '+18135550000', PUBLIC_URL: 'https://ads.example.com' })).toThrow(/TWILIO_AUTH_TOKEN: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together/);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok', PUBLIC_URL: 'https://ads.example.com' })).toThrow(/TWILIO_FROM_NUMBER: Twilio needs/);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM_NUMBER: '+18135550000' })).toThrow(/PUBLIC_URL: is required with TWILIO_ACCOUNT_SID/);
    expect(() => loadConfig({ REALGEEKS_API_USERNAME: 'listingads' })).toThrow(/REALGEEKS_API_PASSWORD: REALGEEKS_API_USERNAME and REALGEEKS_API_PASSWORD go together/);
  });

  it('takes the LionDesk OAuth app as a pair: both or neither', () => {
    expect(loadConfig({}).LIONDESK_CLIENT_ID).toBeUndefined();
    expect(loadConfig({ LIONDESK_CLIENT_ID: 'ld-client', LIONDESK_CLIENT_SECRET: 'ld-secret' }).LIONDESK_CLIENT_ID).toBe('ld-client');
    expect(() => loadConfig({ LIONDESK_CLIENT_ID: 'ld-client' })).toThrow(/LIONDESK_CLIENT_SECRET: LIONDESK_CLIENT_ID and LIONDESK_CLIENT_SECRET go together/);
    expect(() => loadConfig({ LIONDESK_CLIENT_SECRET: 'ld-secret' })).toThrow(/LIONDESK_CLIENT_SECRET: LIONDESK_CLIENT_ID and LIONDESK_CLIENT_SECRET go together/);
  });

  it('keeps metrics off unless METRICS_PORT is set, and never on the public port', () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(loadConfig({}).MIGRATE_ON_START).toBe(true);
  });

  it('refuses Meta mode without PUBLIC_URL', () => {
    expect(() => loadConfig({ META_ACCESS_TOKEN: 'meta', META_AD_ACCOUNT_ID: 'act_1', META_PAGE_ID: 'page_1' })).toThrow(/PUBLIC_URL: is required with META_ACCESS_TOKEN/);
    expect(loadConfig({ META_ACCESS_TOKEN: 'meta', META_AD_ACCOUNT_ID: 'act_1', META_PAGE_ID: 'page_1', PUBLIC_URL: 'http://localhost:3000' }).providers.ads).toBe('meta');
  });

  it('autopilot: MLS_POLL_INTERVAL_S at least 60 (default 300); AUTOPILOT_TIME_SCALE only outside production', () => {
    expect(loadConfig({}).MLS_POLL_INTERVAL_S).toBe(300);
    expect(() => loadConfig({ MLS_POLL_INTERVAL_S: '30' })).toThrow(/MLS_POLL_INTERVAL_S: must be at least 60/);
    expect(loadConfig({ NODE_ENV: 'test', AUTOPILOT_TIME_SCALE: '0.001' }).AUTOPILOT_TIME_SCALE).toBe(0.001);
    expect(() => loadConfig({ NODE_ENV: 'production', AUTOPILOT_TIME_SCALE: '0.5' })).toThrow(/AUTOPILOT_TIME_SCALE: shortens autopilot's veto window/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://ads.example.com' }).AUTOPILOT_TIME_SCALE).toBe(1);
  });

  it('CAMPAIGN_TIME_SCALE shortens campaign time outside production only; SANDBOX_UNDERDELIVERY_RATE is a share', () => {
    expect(loadConfig({}).CAMPAIGN_TIME_SCALE).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', CAMPAIGN_TIME_SCALE: '0.001' }).CAMPAIGN_TIME_SCALE).toBe(0.001);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', CAMPAIGN_TIME_SCALE: '0.5' })).toThrow(/CAMPAIGN_TIME_SCALE: shortens flights, syncs and settlement/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', CAMPAIGN_TIME_SCALE: '1' }).CAMPAIGN_TIME_SCALE).toBe(1);
    expect(() => loadConfig({ SANDBOX_UNDERDELIVERY_RATE: '1.5' })).toThrow(/SANDBOX_UNDERDELIVERY_RATE/);
    expect(loadConfig({ SANDBOX_UNDERDELIVERY_RATE: '1' }).SANDBOX_UNDERDELIVERY_RATE).toBe(1);
  });

  it('refuses an https PUBLIC_URL without TRUST_PROXY in production, with the reason', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://ads.example.com' })).toThrow(/TRUST_PROXY: must be true with an https:\/\/ PUBLIC_URL/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://ads.example.com', TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('requires PUBLIC_URL in production: absolute links are never built from request headers (L1)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: is required in production/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000');
    // Development and tests without it: this server on localhost.
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    expect(publicOrigin(loadConfig({ PORT: '4123' }))).toBe('http://localhost:4123');
    expect(publicOrigin(loadConfig({ PUBLIC_URL: 'https://homes.example.com/' }))).toBe('https://homes.example.com');
  });

  it('refuses OUTBOUND_ALLOW_LOOPBACK=true in production (L8)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', OUTBOUND_ALLOW_LOOPBACK: 'true' })).toThrow(/OUTBOUND_ALLOW_LOOPBACK: lets webhooks reach this machine/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', OUTBOUND_ALLOW_LOOPBACK: 'false' }).OUTBOUND_ALLOW_LOOPBACK).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOW_LOOPBACK: 'true' }).OUTBOUND_ALLOW_LOOPBACK).toBe(true);
  });

  it('lists every problem readably', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', STRIPE_SECRET_KEY: 'sk_test_1', ADMIN_PASSWORD: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        expect.stringMatching(/^ADMIN_PASSWORD: must be at least 8 characters/),
      ]),
    );
    expect((error as ConfigError).message).toContain('Invalid configuration');
  });

  it('requires the webhook secret with a Stripe key', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
