// Shared by the benches that run the real app: starting it as shipped on a filled database, one
// /instances case against a bare server, the method paragraph every section repeats.
import path from 'node:path';
import { CACHED_PATH, CLIENT_HEADER, KEY, NEW_FILTER_PATH, benchEnv } from './bench-settings.js';
import { capture, writeForBare } from './capture.js';
import { runScript, startServer } from './server-process.js';
import { buildShipped, startShipped, type ShippedServer } from './shipped-server.js';
import {
  CONNECTIONS,
  ROUNDS,
  SECONDS,
  WARMUP_SECONDS,
  sideBySide,
  type SideBySide,
} from './side-by-side.js';
import type { AddressSpace } from './wrk.js';
import { WRK_THREADS } from './wrk.js';

const here = import.meta.dirname;
export const ROOT = path.resolve(here, '../..');

/** This tree built as `npm start` runs it (`npm run build`): dist/src/main.js. */
export const APP = buildShipped(ROOT);
export const BARE = path.join(here, 'bare-server.ts');
export const FASTIFY = path.join(here, 'fastify-server.ts');
const FILL = path.join(here, 'fill-catalogue.ts');

// The paths and key, for the many benches that import them from here.
export { CACHED_PATH, KEY, NEW_FILTER_PATH };

export interface InstancesCase {
  readonly name: string;
  readonly result: SideBySide;
  readonly bodyBytes: number;
  /** Plain Fastify against the same bare server with the same bytes, when asked for. */
  readonly ceiling?: SideBySide;
}

/**
 * One /instances case: the app (already started) against a bare server sending what the app
 * answered `samplePath` with.
 */
export async function instancesCase(
  name: string,
  app: ShippedServer,
  dir: string,
  wrkPath: string,
  samplePath: string,
  addresses: AddressSpace,
  withCeiling = false,
): Promise<InstancesCase> {
  const appUrl = await app.url;
  const headers = { 'x-api-key': KEY, [CLIENT_HEADER]: 'capture-1' };
  await capture(`${appUrl}${samplePath}`, { headers }); // fills the cache for the cached case
  const sample = await capture(`${appUrl}${samplePath}`, {
    headers: { ...headers, [CLIENT_HEADER]: 'capture-2' },
  });
  const bodyFile = path.join(dir, `${name.replace(/\W+/g, '-')}.body`);
  writeForBare(bodyFile, sample);
  const bare = startServer(BARE, [bodyFile]);
  try {
    console.log(`${name}: ${sample.body.length} B body`);
    const result = await sideBySide(
      { name: 'cloudprice', url: appUrl, pid: app.pid },
      { name: 'bare', url: await bare.url, pid: bare.pid },
      {
        path: wrkPath,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
      },
      addresses,
    );
    const ceiling = withCeiling
      ? await frameworkCeiling(bodyFile, bare, await bare.url, wrkPath, addresses)
      : undefined;
    return { name, result, bodyBytes: sample.body.length, ...(ceiling && { ceiling }) };
  } finally {
    await bare.stop();
  }
}

/**
 * Plain Fastify (bench/support/fastify-server.ts) against the bare server, both sending the same
 * bytes and headers, measured like the app: the most any Fastify app can reach on this machine.
 */
async function frameworkCeiling(
  bodyFile: string,
  bare: { readonly pid: number },
  bareUrl: string,
  wrkPath: string,
  addresses: AddressSpace,
): Promise<SideBySide> {
  const fastify = startServer(FASTIFY, [bodyFile]);
  try {
    console.log('framework ceiling: plain Fastify against the same bare server');
    return await sideBySide(
      { name: 'plain Fastify', url: await fastify.url, pid: fastify.pid },
      { name: 'bare', url: bareUrl, pid: bare.pid },
      {
        path: wrkPath,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
      },
      addresses,
    );
  } finally {
    await fastify.stop();
  }
}

/**
 * The app as shipped (bench/support/shipped-server.ts) on `dir`'s database, `main` this tree's
 * build unless a before/after comparison names another's.
 */
export function startApp(
  dir: string,
  env: Record<string, string> = {},
  nodeOptions: readonly string[] = [],
  main: string = APP,
): ShippedServer {
  // Each request's client address comes from wrk in CLIENT_HEADER (bench/wrk/new-client.lua).
  const settings = { API_KEYS: KEY, CLIENT_IP_HEADER: CLIENT_HEADER, ...benchEnv, ...env };
  return startShipped(main, dir, settings, nodeOptions);
}

/** Fills `dir`'s default database with `catalogue` in a process of its own (fill-catalogue.ts). */
/**
 * Fills `dir` with `catalogue`; with `tree`, by that checkout's own fill script in that checkout
 * (its own schema and bundled snapshots: another commit's server may not open our database).
 */
export async function fill(dir: string, catalogue: string, tree?: string): Promise<void> {
  if (tree === undefined) return runScript(FILL, [dir, catalogue]);
  await runScript(path.join(tree, 'bench/support/fill-catalogue.ts'), [dir, catalogue], {}, tree);
}

export async function availableRecords(app: { readonly url: Promise<string> }): Promise<number> {
  const health = (await fetch(`${await app.url}/health`, {
    headers: { 'x-api-key': KEY, [CLIENT_HEADER]: 'capture-health' },
  }).then((r) => r.json())) as { summary: { total_instances: number } };
  return health.summary.total_instances;
}

export function method(): string {
  return `the server as \`npm start\` runs it: \`npm run build\`, then \`node dist/src/main.js\` in
the tree with the default configuration (no \`LOG_LEVEL\`: \`info\`, one line per request) and
stdout and stderr appended to a log file (bench/support/shipped-server.ts); the only settings
given are \`DATA_DIR\` (a filled temporary directory, its default SQLite database), \`PORT=0\`,
\`API_KEYS\`, \`CLIENT_IP_HEADER=${CLIENT_HEADER}\` and
\`RATE_LIMIT_MAX_COUNTERS=${benchEnv.RATE_LIMIT_MAX_COUNTERS}\` (every request carries a client
address never used before, \`bench/wrk/new-client.lua\`, so each pays a new rate-limit counter,
and a whole bench's addresses must fit). Against it, a bare \`node:http\` server
(\`bench/support/bare-server.ts\`) sending the body and headers the app sent for the same
request. wrk ${WRK_THREADS} thread(s), ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up per
server, then ${ROUNDS} rounds of ${SECONDS} s alternating cloudprice and bare. Per run: requests/s
and each server's CPU time (utime + stime from \`/proc/<pid>/stat\`, all threads) over the
requests it answered; a round's CPU ratio is bare's CPU per request over ours (1 = as cheap as
bare), the result the median of the rounds.`;
}
