// One jest run, three projects: contracts, backend and scripts on Node (with the embedded PostgreSQL of
// backend/test), and the host's wizard logic (reducers, guards, storage) and the dashboard's cards in jsdom. Browser journeys
// run under Playwright (frontend-host/e2e/).
const esmOnly = [
  'nock', '@mswjs', 'rettime', '@open-draft', 'outvariant', 'strict-event-emitter',
  'is-node-process', 'pg-boss', 'serialize-error', 'non-error', 'cron-parser', 'rrule-temporal', 'luxon',
  // @react-pdf/renderer (the reports' PDF) and its ESM-only dependencies.
  '@react-pdf', 'yoga-layout', 'color-string', 'color-name',
];

/** @app/contracts' doors (its package.json `exports`) at their sources: `^@app/contracts/rules$` → contracts/src/rules.ts. */
const contractsDoors = Object.fromEntries(
  Object.entries(require('./contracts/package.json').exports)
    .filter(([, target]) => typeof target === 'object' && target.source)
    .map(([subpath, target]) => [`^@app/contracts${subpath.slice(1)}$`, `<rootDir>/contracts/${target.source.slice(2)}`]),
);

const swc = (syntax) => ['@swc/jest', {
  jsc: {
    parser: syntax === 'tsx' ? { syntax: 'typescript', tsx: true } : { syntax: 'typescript' },
    target: 'es2022',
    ...(syntax === 'tsx' ? { transform: { react: { runtime: 'automatic' } } } : {}),
  },
  module: { type: 'commonjs' },
}];

/** A frontend's unit tests (`app`/src): jsdom, TSX, the contracts' and ui's doors at their sources. */
const frontendProject = (app) => ({
  displayName: app,
  testEnvironment: 'jsdom',
  roots: [`<rootDir>/${app}/src`],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  setupFiles: ['<rootDir>/frontend-host/test/jsdom-setup.cjs'],
  transform: { '^.+\\.(t|j|mj)sx?$': swc('tsx') },
  moduleNameMapper: {
    ...contractsDoors,
    '^@app/ui$': '<rootDir>/ui/src/index.ts',
    // CSS (modules) are Vite's business: class names come back as their own keys.
    '\\.css$': '<rootDir>/frontend-host/test/style-stub.cjs',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
});

module.exports = {
  testTimeout: 30000,
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      // integrations/zapier: the Zapier app's own tests, against the product started in the test.
      roots: ['<rootDir>/contracts/src', '<rootDir>/backend/src', '<rootDir>/scripts', '<rootDir>/integrations/zapier'],
      testMatch: ['**/*.test.ts'],
      // *.pgbouncer.test.ts need the PgBouncer of the run through it (scripts/test-pgbouncer.mjs, TEST_POOLER=pgbouncer).
      testPathIgnorePatterns: process.env.TEST_POOLER === 'pgbouncer' ? ['/node_modules/'] : ['/node_modules/', '\\.pgbouncer\\.test\\.ts$'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc('ts') },
      transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
      moduleNameMapper: {
        ...contractsDoors,
        // Exported for `import` only: jest resolves require conditions.
        '^@react-pdf/hyphenate/(.*)$': '<rootDir>/node_modules/@react-pdf/hyphenate/lib/$1.js',
        '^(\\.{1,2}/.*)\\.js$': '$1',
      },
      setupFiles: ['<rootDir>/backend/test/polyfills.cjs', '<rootDir>/backend/test/offline-dns.cjs'],
      setupFilesAfterEnv: ['<rootDir>/backend/test/after-each-file.cjs'],
      globalSetup: '<rootDir>/backend/test/global-setup.ts',
      globalTeardown: '<rootDir>/backend/test/global-teardown.ts',
    },
    frontendProject('frontend-host'),
    // The dashboard remote's form logic and cards, in jsdom like the host's.
    frontendProject('frontend-dashboard'),
    {
      // The shared primitives (ui/): what a field wires for its control.
      displayName: 'ui',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/ui/src'],
      testMatch: ['**/*.test.tsx'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc('tsx') },
      moduleNameMapper: { '\\.css$': '<rootDir>/frontend-host/test/style-stub.cjs' },
    },
  ],
};
