// Shared by the benches that run the real app: starting it on a filled database, one
// /instances case against a bare server, the method paragraph every section repeats.
import path from 'node:path';
import { CLIENT_HEADER, benchEnv } from './bench-settings.js';
import { capture, writeForBare } from './capture.js';
import { runScript, startServer, type ServerProcess } from './server-process.js';
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
export const APP = path.join(here, 'app-server.ts');
export const BARE = path.join(here, 'bare-server.ts');

export const NEW_FILTER_PATH = '/instances?limit=50&sort_by=price&order=desc&max_price={price}';
export const CACHED_PATH = '/instances?limit=50&sort_by=price';

export interface InstancesCase {
  readonly name: string;
  readonly result: SideBySide;
  readonly bodyBytes: number;
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
    return { name, result, bodyBytes: sample.body.length };
  } finally {
    await bare.stop();
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
are separate processes (\`node --import tsx\`); the bare server is \`bench/support/bare-server.ts\`
sending the body and headers the app sent for the same request.`;
}
