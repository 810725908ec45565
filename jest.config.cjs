// One jest run for contracts, backend and scripts. Browser journeys run under Playwright (e2e/).
const esmOnly = [
  'nock', '@mswjs', 'rettime', '@open-draft', 'outvariant', 'strict-event-emitter',
  'is-node-process', 'pg-boss', 'serialize-error', 'non-error', 'cron-parser', 'rrule-temporal', 'luxon',
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/contracts/src', '<rootDir>/backend/src', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)sx?$': ['@swc/jest', {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper: {
    '^@app/contracts$': '<rootDir>/contracts/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFiles: ['<rootDir>/backend/test/polyfills.cjs'],
  setupFilesAfterEnv: ['<rootDir>/backend/test/after-each-file.cjs'],
  globalSetup: '<rootDir>/backend/test/global-setup.ts',
  globalTeardown: '<rootDir>/backend/test/global-teardown.ts',
  testTimeout: 30000,
};
