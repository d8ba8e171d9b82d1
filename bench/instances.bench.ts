// npm run bench:instances — GET /instances on a realistic catalogue (about 4,000 records written
// through the store) against a bare node:http server sending the identical bytes, cache hit and
// cache miss, in one run with the same load tool. Writes docs/performance.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runLoad, ratioTable, startServer, type LoadResult } from './support/load.js';
import { machineLine, writeSection } from './support/report.js';

const KEY = 'bench-key-0123456789abcdef';
const RECORDS = 4000;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const QUERY = '/instances?limit=50&sort_by=price';
const here = import.meta.dirname;
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-'));

async function capture(base: string): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const response = await fetch(`${base}${QUERY}`, { headers: { 'x-api-key': KEY } });
  if (response.status !== 200) throw new Error(`${QUERY} answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name))
      headers[name] = value;
  });
  return { body, headers };
}

async function compare(name: string, env: Record<string, string>, target: number) {
  const app = startServer(path.join(here, 'support/app-server.ts'), [dir, String(RECORDS)], {
    API_KEYS: KEY,
    ...env,
  });
  const appUrl = await app.url;
  await capture(appUrl); // fills the cache when it is on
  const sample = await capture(appUrl);
  const bodyFile = path.join(dir, `${name}.body`);
  writeFileSync(bodyFile, sample.body);
  writeFileSync(`${bodyFile}.headers.json`, JSON.stringify(sample.headers));
  const bare = startServer(path.join(here, 'support/bare-server.ts'), [bodyFile]);
  const bareUrl = await bare.url;
  const load = (url: string, label: string): Promise<LoadResult> =>
    runLoad({
      url: `${url}${QUERY}`,
      label,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      headers: { 'x-api-key': KEY },
      clientHeader: 'x-bench-client',
    });
  // Warm both (JIT, caches), then measure alternately.
  await load(appUrl, 'warm-up');
  await load(bareUrl, 'warm-up');
  const ours = await load(appUrl, `cloudprice ${name}`);
  const baseline = await load(bareUrl, `bare ${name}`);
  await Promise.all([app.stop(), bare.stop()]);
  if (ours.non2xx > 0 || ours.errors > 0)
    throw new Error(`${name}: ${ours.non2xx} non-2xx and ${ours.errors} errors`);
  console.log(name, { ours, baseline, bytes: sample.body.length });
  return { name: `${name} (${sample.body.length} B body)`, ours, bare: baseline, target };
}

try {
  const hit = await compare('cache hit', {}, 0.7);
  const miss = await compare('cache miss', { CACHE_MAX_ENTRIES: '0' }, 0.25);
  const table = ratioTable([hit, miss]);
  console.log(table);
  writeSection(
    'instances',
    `## GET /instances

Command: \`npm run bench:instances\` (bench/instances.bench.ts). ${machineLine()}.
Load tool: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run after a warm-up run, server and
load generator in separate processes. Catalogue: ${RECORDS} records written through the store
into SQLite. Query \`${QUERY}\` with a valid key; every request comes from a new client address
(the trusted client header), so each one pays a real rate-limit count. The baseline is a bare
\`node:http\` server sending the identical body and headers. "Cache miss" runs the same server
with \`CACHE_MAX_ENTRIES=0\`, so every request queries SQLite.

${table}

Hot path: one \`onRequest\` hook (precomputed frozen header objects, a counter increment, a
SHA-256 digest comparison), then for a hit a single LRU lookup that returns the stored response
bytes. A miss reads the page's ids with the catalogue version in one precompiled SQL statement;
the total is memoised per (catalogue version, filter) and the records' JSON per record until
the next sync, so only records not yet seen since the sync are read and serialised (the first
miss after a sync reads them in one snapshot transaction).`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
