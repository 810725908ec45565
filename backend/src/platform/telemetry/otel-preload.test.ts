/**
 * backend/otel.mjs, the preload the start script and the Docker image pass to node: it starts tracing only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set, and otherwise loads nothing of the OpenTelemetry SDK.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../config';

beforeAll(() => {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', path.join(REPO_ROOT, 'backend')], { stdio: 'ignore' });
}, 180_000);

/** The OpenTelemetry SDK and instrumentation modules loaded once the preload has run and the app's modules are required. */
function sdkModulesLoaded(env: NodeJS.ProcessEnv): string[] {
  const script = `require(${JSON.stringify(path.join(REPO_ROOT, 'backend', 'dist', 'app.js'))});
    const loaded = Object.keys(require.cache).filter((f) => /@opentelemetry[\\\\/](sdk-|instrumentation)/.test(f));
    process.stdout.write(JSON.stringify(loaded));`;
  const out = execFileSync(process.execPath, ['--import', path.join(REPO_ROOT, 'backend', 'otel.mjs'), '-e', script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('backend/otel.mjs', () => {
  it('loads nothing of the SDK without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(sdkModulesLoaded({})).toEqual([]);
  });

  it('starts tracing, with the instrumentations, when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
    const loaded = sdkModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(loaded.some((f) => f.includes('sdk-node'))).toBe(true);
    for (const name of ['instrumentation-http', 'instrumentation-koa', 'instrumentation-pg', 'instrumentation-undici', 'instrumentation-pino']) {
      expect(loaded.some((f) => f.includes(name))).toBe(true);
    }
  });
});
