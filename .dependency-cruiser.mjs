// The one-way layers of src/ (docs/architecture.md "Layers", docs/adr/0018), checked by
// `npm run lint` (dependency-cruiser). Every import counts, type-only ones included: a type
// import is knowledge of the other module as much as a value import is. Colocated tests
// (src/**/*.test.ts) belong to their folder's layer; test/ is not checked.

/** The domain, all in catalog/: records, offers, catalogues, money and its view in another
 * currency, queries, the in-memory index, and the models storage reads and writes (price
 * changes, webhook events). Storage may not import history/ or events/, and the domain may not
 * import fx/ (the rate service): each such import breaks `npm run lint`. */
const DOMAIN = '^src/catalog/';

/** The core: everything below the front ends (http, cli, mcp) and the composition root. */
const CORE =
  '^src/(catalog|recommend|history|events|fx|sync|health|storage|infra|observability|keys|lifecycle|providers)/';

/** Front ends and the composition root, which the core never imports. */
const ABOVE_CORE = '^src/(http|cli|mcp)/|^src/(main|services)\\.ts$';

/** The error codes and messages both front ends answer in (HTTP envelopes, MCP tool errors). */
const API_ERRORS = '^src/api/';

/** Upstream clients (HTTP and file: timeouts, retries, size caps) and their one error type. */
const UPSTREAM = '^src/sync/upstream/';

const BOTTOM = '^src/(infra|observability)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, at file level, anywhere in src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-below-front-ends',
      comment: 'The core never imports http/, cli/, mcp/, main.ts or services.ts.',
      severity: 'error',
      from: { path: CORE },
      to: { path: ABOVE_CORE },
    },
    {
      name: 'core-without-fastify',
      comment: 'The core never imports Fastify: routes call core functions, never the reverse.',
      severity: 'error',
      from: { path: CORE },
      to: { path: '(^|/)node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'cli-not-http',
      comment: 'The CLI calls the core directly, never the HTTP layer.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'mcp-not-http',
      comment:
        'The MCP server calls the core and answers in the shared error codes (api/); it never imports http/.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'api-errors-below-front-ends',
      comment:
        'The shared error codes import only the domain: never a front end, so both can read them.',
      severity: 'error',
      from: { path: API_ERRORS },
      to: { path: '^src/', pathNot: [API_ERRORS, DOMAIN] },
    },
    {
      name: 'domain-at-the-bottom',
      comment:
        'The domain imports only the domain, infra and observability: never storage, a service, sync, providers or a front end.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: '^src/', pathNot: [DOMAIN, BOTTOM] },
    },
    {
      name: 'storage-reads-the-domain',
      comment:
        'storage/ imports only the domain, infra and observability (no config: it is given options).',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/', pathNot: ['^src/storage/', DOMAIN, BOTTOM] },
    },
    {
      name: 'fx-not-sync',
      comment:
        'fx imports the domain, the upstream clients, infra, observability and config: never the sync service.',
      severity: 'error',
      from: { path: '^src/fx/' },
      to: { path: '^src/', pathNot: ['^src/fx/', DOMAIN, UPSTREAM, BOTTOM, '^src/config\\.ts$'] },
    },
    {
      name: 'providers-below-sync',
      comment:
        'A provider imports the domain, the upstream clients, infra, observability and config: never the sync service, storage or another capability.',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: {
        path: '^src/',
        pathNot: ['^src/providers/', DOMAIN, UPSTREAM, BOTTOM, '^src/config\\.ts$'],
      },
    },
    {
      name: 'upstream-clients-self-contained',
      comment: 'The upstream clients import only themselves, infra and observability.',
      severity: 'error',
      from: { path: UPSTREAM },
      to: { path: '^src/', pathNot: [UPSTREAM, BOTTOM] },
    },
    {
      name: 'infra-observability-at-the-bottom',
      comment: 'infra/ and observability/ import nothing else of src/.',
      severity: 'error',
      from: { path: BOTTOM },
      to: { path: '^src/', pathNot: BOTTOM },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/.*\\.d\\.ts$' },
  },
};
