// The architecture's doors, checked on every `npm test` (npm run lint:deps). DESIGN §1: a backend
// module's index.ts is its only door; frontends talk to the backend over HTTP only; the remotes are
// deployable on their own, so they never reach into the host; the frontends reach contracts and ui
// through their packages' doors (package.json `exports`), and a feature folder with an index.ts through it.
const fs = require('node:fs');
const path = require('node:path');

/** Feature folders that have a door (an index.ts), e.g. `frontend-dashboard/src/features/help`. */
const featureDoors = ['frontend-host', 'frontend-dashboard', 'frontend-admin'].flatMap((app) => {
  const dir = path.join(__dirname, app, 'src', 'features');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'index.ts')))
    .map((name) => `${app}/src/features/${name}`);
});

/** The wizard's steps (spec 000 §7): each talks to the draft, the shared parts and the api, never to another step. */
const WIZARD = '^frontend-host/src/features/creation-flow/';
const WIZARD_STEPS = '(branding|budget|customize|format|landing|listing|targeting)';
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle ties files together so that neither can change or load alone (e.g. an interface importing its implementations). ' +
        'A cycle closed only by `import type` counts too: it still says two files know each other (declare the shared type lower, ' +
        'or let the lower file be augmented, as store/api.ts does for the host store).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'frontends-through-package-doors',
      severity: 'error',
      comment:
        'A frontend imports contracts and ui by their package names (@app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui), ' +
        'never by a relative path into their sources: the packages\' `exports` are their doors.',
      from: { path: '^frontend-' },
      to: { path: '^(contracts|ui)/src/', dependencyTypesNot: ['aliased'] },
    },
    {
      name: 'frontends-land-on-package-doors',
      severity: 'error',
      comment: "What a frontend imports from contracts or ui is one of the entries of the package's `exports` map.",
      from: { path: '^frontend-' },
      to: {
        path: '^(contracts|ui)/src/',
        pathNot: ['^contracts/src/(index|rules|api-client)\\.ts$', '^ui/src/(index\\.ts|tokens\\.css|blueprint-theme\\.css)$'],
      },
    },
    {
      name: 'contracts-top-level-is-zod-free',
      severity: 'error',
      comment:
        "contracts' top-level modules (rules, constants, formats, texts: the doors @app/contracts/rules and @app/contracts/api-client) load no zod, " +
        'so the public listing page and the dashboard can import them; zod stays in schemas/ and wire/ (types from there are erased, so allowed).',
      from: { path: '^contracts/src/[^/]+\\.ts$', pathNot: '^contracts/src/(index\\.ts|[^/]+\\.test\\.ts)$' },
      to: { path: '(^|/)node_modules/zod/|^contracts/src/(index\\.ts|schemas/|wire/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'listing-page-loads-no-zod',
      severity: 'error',
      comment:
        'The public listing page (its own entry, DESIGN §6) takes values from @app/contracts/rules and @app/contracts/api-client; from the barrel, types only.',
      from: { path: '^frontend-host/src/listing-page/' },
      to: { path: '^contracts/src/(index\\.ts|schemas/|wire/)|(^|/)node_modules/zod/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'listing-page-stands-alone',
      severity: 'error',
      comment: "The listing page is the host's second entry: it shares only frontend-host/src/shared with the app, never the app's features or store.",
      from: { path: '^frontend-host/src/listing-page/' },
      to: { path: '^frontend-host/src/', pathNot: '^frontend-host/src/(listing-page|shared)/' },
    },
    {
      name: 'host-app-leaves-listing-page-alone',
      severity: 'error',
      comment: "The host app (main.tsx's entry) never imports the listing page's entry: they meet only in frontend-host/src/shared.",
      from: { path: '^frontend-host/src/', pathNot: '^frontend-host/src/listing-page/' },
      to: { path: '^frontend-host/src/listing-page/' },
    },
    {
      name: 'host-shared-stands-alone',
      severity: 'error',
      comment: "frontend-host/src/shared is what both host entries stand on; it imports neither of them.",
      from: { path: '^frontend-host/src/shared/' },
      to: { path: '^frontend-host/src/', pathNot: '^frontend-host/src/shared/' },
    },
    {
      name: 'wizard-steps-stand-alone',
      severity: 'error',
      comment: "A wizard step never imports another step: what two steps share lives in the wizard's draft/ or shared/.",
      from: { path: `${WIZARD}${WIZARD_STEPS}/` },
      to: { path: `${WIZARD}${WIZARD_STEPS}/`, pathNot: `${WIZARD}$1/` },
    },
    {
      name: 'wizard-draft-at-the-bottom',
      severity: 'error',
      comment: "The wizard's draft (state, rules, storage) is what the steps and shared parts stand on; it imports none of them.",
      from: { path: `${WIZARD}draft/` },
      to: { path: WIZARD, pathNot: `${WIZARD}draft/` },
    },
    {
      name: 'pages-on-top',
      severity: 'error',
      comment: "A remote's page folder (dashboard, admin-dashboard) places the features; no feature imports back up into it.",
      from: { path: '^frontend-(dashboard|admin)/src/features/', pathNot: '^frontend-(dashboard|admin)/src/features/(dashboard|admin-dashboard)/' },
      to: { path: '^frontend-(dashboard|admin)/src/features/(dashboard|admin-dashboard)/' },
    },
    {
      name: 'feature-doors-only',
      severity: 'error',
      comment: "A feature folder with an index.ts is entered through it (like a backend module's door); only its own files reach its internals.",
      from: { path: '^(frontend-[^/]+/src/(?:features/[^/]+|[^/]+))' },
      to: {
        path: featureDoors.length ? `^(${featureDoors.join('|')})/.` : '^$',
        pathNot: ['^$1/', '^frontend-[^/]+/src/features/[^/]+/index\\.ts$'],
      },
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
      name: 'ui-stands-alone',
      severity: 'error',
      comment: 'ui holds the primitives and tokens every app shares; it imports no app, and no contracts (it knows nothing of the product).',
      from: { path: '^ui/' },
      to: { path: '^(backend|frontend-[^/]+|scripts|contracts)/' },
    },
    {
      name: 'contracts-stand-alone',
      severity: 'error',
      comment: 'contracts is shared by every app; it imports none of them, nor ui.',
      from: { path: '^contracts/' },
      to: { path: '^(backend|frontend-[^/]+|scripts|ui)/' },
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
    // node_modules stay in the graph as leaves (doNotFollow), so a rule can name a package (zod).
    exclude: { path: '(^|/)(dist|test-results|playwright-report|\\.data[^/]*)/' },
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
