import { loadConfig, ConfigError } from './config';

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
    });
    expect(Object.values(c.providers)).toEqual(['postgres', 'reso', 'meta', 'stripe', 'gcs', 'openai', 'smtp', 'google']);
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
    expect(loadConfig({ NODE_ENV: 'production' }).AUTOPILOT_TIME_SCALE).toBe(1);
  });

  it('refuses an https PUBLIC_URL without TRUST_PROXY in production, with the reason', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://ads.example.com' })).toThrow(/TRUST_PROXY: must be true with an https:\/\/ PUBLIC_URL/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://ads.example.com', TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000');
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
