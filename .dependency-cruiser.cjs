/**
 * The architecture's rules, checked by dependency-cruiser (`npm run lint`,
 * and test/unit/architecture.test.ts) over the whole tree: the server (src/),
 * its scripts (scripts/), the browser apps (web/), the tests and the
 * examples. The layers, from the inside out: core (the seed's rules, pure) ←
 * persistence, application ← graphql (the schema) ← engine (the request
 * pipeline) ← http, with src/main.ts the one composition root (see
 * docs/architecture.md). No import cycle anywhere.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment:
        'The core holds the seed rules: it imports nothing but itself (no other layer, no package: no graphql, no typeorm).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { pathNot: '^src/core/' },
    },
    {
      name: 'application-knows-no-transport',
      comment: 'Use cases know nothing of GraphQL or HTTP.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: {
        path: [
          '^src/(graphql|engine|http)/',
          '(^|/)node_modules/(graphql|type-graphql|@apollo|fastify|@as-integrations)/',
        ],
      },
    },
    {
      name: 'persistence-serves-upwards-only',
      comment: 'Persistence imports neither the application layer nor any transport.',
      severity: 'error',
      from: { path: '^src/persistence/' },
      to: {
        path: [
          '^src/(application|graphql|engine|http|demo|registry-files)/',
          '(^|/)node_modules/(graphql|type-graphql|@apollo|fastify)/',
        ],
      },
    },
    {
      name: 'registry-reads-only-through-a-session',
      comment:
        'In the server, the registry reader is held by the versioning module alone: every read outside a write transaction goes through a ReadSession, which pins the registry version first. (Tests may build readers and doubles of it.)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/persistence/', '^src/application/versioning/'] },
      to: { path: ['^src/persistence/registry-reader\\.ts$', '^src/persistence/reads/'] },
    },
    {
      name: 'database-only-in-the-root-and-versioning',
      comment: 'Only persistence, the versioning module and the composition root hold the database.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/persistence/', '^src/application/versioning/', '^src/main\\.ts$'] },
      to: { path: '^src/persistence/(database|read-connection|data-source)\\.ts$' },
    },
    {
      name: 'schema-knows-no-pipeline',
      comment:
        'The schema (src/graphql: types, inputs, resolvers, scalars) knows nothing of how requests are run: the engine (src/engine) and HTTP import it, never the other way.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/(engine|http)/' },
    },
    {
      name: 'engine-knows-no-routes',
      comment: 'The request pipeline (src/engine) is called by the HTTP layer and imports nothing of it.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'graphql-away-from-typeorm',
      comment: 'GraphQL types and resolvers, and the engine that runs them, never touch TypeORM or the database.',
      severity: 'error',
      from: { path: '^src/(graphql|engine)/' },
      to: { path: ['(^|/)node_modules/typeorm/', '^src/persistence/(database|entities|migrations|registry-writer)'] },
    },
    {
      name: 'registry-files-are-plain',
      comment: 'The YAML file module maps to plain objects: no GraphQL, HTTP, application layer or persistence.',
      severity: 'error',
      from: { path: '^src/registry-files/' },
      to: {
        path: [
          '^src/(graphql|engine|http|application|persistence)/',
          '(^|/)node_modules/(graphql|type-graphql|@apollo|fastify|typeorm|pg|better-sqlite3)/',
        ],
      },
    },
    {
      name: 'jsutils-is-a-leaf',
      comment: 'The small shared helpers (src/jsutils, one per file) import nothing but each other.',
      severity: 'error',
      from: { path: '^src/jsutils/' },
      to: { pathNot: '^src/jsutils/' },
    },
    {
      name: 'server-stands-alone',
      comment: 'The server imports nothing from its scripts, browser apps, tests or examples.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|web|test|examples)/' },
    },
    {
      name: 'browser-apps-stay-in-the-browser',
      comment: 'The browser apps (web/) import no server code: they talk to it over HTTP.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: ['^src/', '^scripts/'] },
    },
    {
      name: 'cli-is-an-entry-point',
      comment:
        'The command line (src/cli.ts, src/cli/) starts the server or talks to it; nothing in the server imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli(\\.ts$|/)' },
      to: { path: '^src/cli(\\.ts$|/)' },
    },
    {
      name: 'observability-stays-outside',
      comment:
        'Metrics and traces (src/observability/) watch the layers through small interfaces the layers declare (a feed observer, a statement tracer); the core, the application layer and persistence never import them.',
      severity: 'error',
      from: { path: '^src/(core|application|persistence)/' },
      to: { path: '^src/observability/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The fixture tree breaks every rule on purpose (test/unit/architecture.test.ts cruises it on its own). The
    // benchmark's peers are packages of their own (their own package.json and lockfile, installed apart: npm ci there).
    exclude: { path: '^(test/fixtures/|scripts/bench/peers/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
