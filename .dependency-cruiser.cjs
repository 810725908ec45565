// The architecture's doors, checked on every `npm test` (npm run lint:deps). DESIGN §1: a backend
// module's index.ts is its only door; frontends talk to the backend over HTTP only; the remotes are
// deployable on their own, so they never reach into the host.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle ties files together so that neither can change or load alone (e.g. an interface importing its implementations). ' +
        'A cycle closed only by `import type` is erased at compile time, so it is allowed (store.ts names the api type it injects).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'module-door-only',
      severity: 'error',
      comment: "A backend module imports another module only through that module's index.ts (its door), never its internals.",
      from: { path: '^backend/src/modules/([^/]+)/' },
      to: {
        path: '^backend/src/modules/[^/]+/.',
        pathNot: ['^backend/src/modules/$1/', '^backend/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'outside-uses-module-doors',
      severity: 'error',
      comment: 'Code outside the modules (app, jobs registry, platform, test helpers, scripts) enters a module through its index.ts only.',
      from: { pathNot: '^backend/src/modules/' },
      to: {
        path: '^backend/src/modules/[^/]+/.',
        pathNot: '^backend/src/modules/[^/]+/index\\.ts$',
      },
    },
    {
      name: 'platform-knows-no-module',
      severity: 'error',
      comment: 'platform/ is the cross-cutting floor the modules stand on; it never depends on a module.',
      from: { path: '^backend/src/platform/' },
      to: { path: '^backend/src/modules/' },
    },
    {
      name: 'frontends-never-import-backend',
      severity: 'error',
      comment: 'The frontends reach the backend over HTTP; shared shapes and rules live in contracts.',
      from: { path: '^frontend-' },
      to: { path: '^backend/' },
    },
    {
      name: 'remotes-never-import-host',
      severity: 'error',
      comment: 'The dashboard and admin remotes are built and deployed on their own; their contract with the host lives in contracts.',
      from: { path: '^frontend-(dashboard|admin)/' },
      to: { path: '^frontend-host/' },
    },
    {
      name: 'apps-never-import-each-other',
      severity: 'error',
      comment: 'The host reaches the remotes at run time through Module Federation (src/remotes/registry.ts), never by a file import.',
      from: { path: '^frontend-(host|dashboard|admin)/' },
      to: { path: '^frontend-(dashboard|admin)/', pathNot: '^frontend-$1/' },
    },
    {
      name: 'contracts-stand-alone',
      severity: 'error',
      comment: 'contracts is shared by every app; it imports none of them.',
      from: { path: '^contracts/' },
      to: { path: '^(backend|frontend-[^/]+|scripts)/' },
    },
    {
      name: 'contracts-answers-never-import-requests',
      severity: 'error',
      comment:
        'contracts/CONTEXT.md: requests (inputs) live in contracts/src/schemas/, answers (outputs) in contracts/src/wire/. ' +
        'An answer is built from other answers (the listing core, common shapes), never from a request schema.',
      from: { path: '^contracts/src/wire/' },
      to: { path: '^contracts/src/schemas/' },
    },
    {
      name: 'contracts-requests-never-import-answers',
      severity: 'error',
      comment: 'contracts/CONTEXT.md: a request schema (contracts/src/schemas/) validates what comes in; an answer it needs is in the wrong home.',
      from: { path: '^contracts/src/schemas/' },
      to: { path: '^contracts/src/wire/' },
    },
    {
      name: 'contracts-rules-stand-before-schemas',
      severity: 'error',
      comment:
        'contracts/CONTEXT.md: the top-level files of contracts/src are zod-free rules and texts the pages load without zod; ' +
        'they never import the schemas or answers (a type from wire/ is erased, so `import type` is allowed). ' +
        'zod itself is under node_modules, which this config excludes: contracts/src/rules.test.ts checks that import.',
      from: { path: '^contracts/src/[^/]+\\.ts$', pathNot: ['\\.test\\.ts$', '^contracts/src/index\\.ts$'] },
      to: { path: '^contracts/src/(schemas|wire)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test-results|playwright-report|\\.data[^/]*)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // Vite's asset and CSS-module imports resolve through vite, not TypeScript.
    moduleSystems: ['es6', 'cjs'],
    reporterOptions: { text: { highlightFocused: true } },
  },
};
