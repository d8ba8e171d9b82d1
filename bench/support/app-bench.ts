// Shared by the benches that run the real app: starting it on a filled database, one
// /instances case against a bare server, the method paragraph every section repeats.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_HEADER, benchEnv } from './bench-settings.js';
import { capture, writeForBare } from './capture.js';
import { runScript, startServer, type ServerProcess } from './server-process.js';
import { moduleGraph, transpileFiles } from './transpile.js';
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

export const KEY = 'bench-key-0123456789abcdef';
const here = import.meta.dirname;
const ROOT = path.resolve(here, '../..');

/**
 * The app as `npm start` runs it: its TypeScript compiled to JavaScript and run by plain `node`,
 * not through tsx, whose esbuild output adds a `__name` call wherever a function is created (a
 * per-request cost production does not have: 3% of a cached /instances request's CPU, measured
 * 2026-11-24). Written under `<tree>/bench/.out/app-<pid>/` so that the compiled modules resolve
 * that tree's node_modules, and removed when the bench exits. `tree` is this checkout unless a
 * before/after comparison names another.
 */
export async function compiledApp(tree: string = ROOT): Promise<string> {
  const outDir = path.join(tree, 'bench/.out', `app-${process.pid}`);
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  const graph = await moduleGraph(tree, [
    'bench/support/app-server.ts',
    // Started as a worker by the provider_c sync, by file name rather than by import.
    'src/sync/providers/provider-c/parse-worker.ts',
  ]);
  await transpileFiles(tree, graph, outDir);
  return path.join(outDir, 'bench/support/app-server.js');
}

export const APP = await compiledApp();
export const BARE = path.join(here, 'bare-server.ts');
export const FASTIFY = path.join(here, 'fastify-server.ts');

export const NEW_FILTER_PATH = '/instances?limit=50&sort_by=price&order=desc&max_price={price}';
export const CACHED_PATH = '/instances?limit=50&sort_by=price';

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
  app: ServerProcess,
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
      { name: 'cloudprice', url: appUrl },
      { name: 'bare', url: await bare.url },
      {
        path: wrkPath,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
      },
      addresses,
    );
    const ceiling = withCeiling
      ? await frameworkCeiling(bodyFile, await bare.url, wrkPath, addresses)
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
  bareUrl: string,
  wrkPath: string,
  addresses: AddressSpace,
): Promise<SideBySide> {
  const fastify = startServer(FASTIFY, [bodyFile]);
  try {
    console.log('framework ceiling: plain Fastify against the same bare server');
    return await sideBySide(
      { name: 'plain Fastify', url: await fastify.url },
      { name: 'bare', url: bareUrl },
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

/** The app on `dir`'s database, with a counter table large enough for a whole bench. */
export function startApp(
  dir: string,
  catalogue: string,
  env: Record<string, string> = {},
  nodeOptions: readonly string[] = [],
) {
  return startServer(APP, [dir, catalogue], { API_KEYS: KEY, ...benchEnv, ...env }, nodeOptions);
}

export async function fill(dir: string, catalogue: string): Promise<void> {
  await runScript(APP, [dir, catalogue, 'fill-only'], { API_KEYS: KEY });
}

export async function availableRecords(app: ServerProcess): Promise<number> {
  const health = (await fetch(`${await app.url}/health`, {
    headers: { 'x-api-key': KEY, [CLIENT_HEADER]: 'capture-health' },
  }).then((r) => r.json())) as { summary: { total_instances: number } };
  return health.summary.total_instances;
}

export function method(): string {
  return `wrk ${WRK_THREADS} threads, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up per
server, then ${ROUNDS} rounds of ${SECONDS} s alternating cloudprice and bare; each round's ratio
is cloudprice's requests/s over bare's, the result is the median of the rounds' ratios. Every
request carries a client address never used before (\`bench/wrk/new-client.lua\` sets the
header the app trusts, \`CLIENT_IP_HEADER=${CLIENT_HEADER}\`), so each pays a new rate-limit
counter; \`RATE_LIMIT_MAX_COUNTERS=${benchEnv.RATE_LIMIT_MAX_COUNTERS}\` so that a whole bench's
addresses fit (the client-flood bench measures the default bound). Servers, harness and wrk
are separate processes; the app runs compiled to JavaScript as \`npm start\` runs it
(\`compiledApp\` in \`bench/support/app-bench.ts\`), the bare server is \`bench/support/bare-server.ts\`
sending the body and headers the app sent for the same request.`;
}
