// npm run bench:recommend — POST /recommend on the full bundled catalogue (all three providers'
// snapshots synced through the real adapters) against a bare node:http server answering a POST
// with a body of the same size, in one run with the same load tool. No response cache exists for
// /recommend: every request reads the candidates and scores them. Writes docs/performance.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ratioTable, runLoad, startServer } from './support/load.js';
import { machineLine, writeSection } from './support/report.js';

const KEY = 'bench-key-0123456789abcdef';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const BODY = JSON.stringify({
  stack: ['nginx', 'nodejs', 'postgresql', 'redis'],
  scale: 'medium',
  budget_max: 80,
});
const here = import.meta.dirname;
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-recommend-'));
const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };

try {
  const app = startServer(path.join(here, 'support/app-server.ts'), [dir, '0', 'snapshots'], {
    API_KEYS: KEY,
  });
  const appUrl = await app.url;
  const sample = await fetch(`${appUrl}/recommend`, { method: 'POST', headers, body: BODY });
  if (sample.status !== 200) throw new Error(`/recommend answered ${sample.status}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const records = await fetch(`${appUrl}/health`, { headers }).then(
    (r) => r.json() as Promise<{ summary: { total_instances: number } }>,
  );
  const bodyFile = path.join(dir, 'recommend.body');
  writeFileSync(bodyFile, body);
  writeFileSync(
    `${bodyFile}.headers.json`,
    JSON.stringify({ 'content-type': 'application/json; charset=utf-8' }),
  );
  const bare = startServer(path.join(here, 'support/bare-server.ts'), [bodyFile]);
  const bareUrl = await bare.url;
  const load = (url: string, label: string) =>
    runLoad({
      url: `${url}/recommend`,
      label,
      method: 'POST',
      body: BODY,
      headers,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      clientHeader: 'x-bench-client',
    });
  await load(appUrl, 'warm-up');
  await load(bareUrl, 'warm-up');
  const ours = await load(appUrl, 'cloudprice');
  const baseline = await load(bareUrl, 'bare');
  await Promise.all([app.stop(), bare.stop()]);
  if (ours.non2xx > 0 || ours.errors > 0)
    throw new Error(`${ours.non2xx} non-2xx and ${ours.errors} errors`);
  const table = ratioTable([
    { name: `POST /recommend (${body.length} B body)`, ours, bare: baseline, target: 0.3 },
  ]);
  console.log(table);
  writeSection(
    'recommend',
    `## POST /recommend

Command: \`npm run bench:recommend\` (bench/recommend.bench.ts). ${machineLine()}.
Load tool: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run after a warm-up run, server and
load generator in separate processes. Catalogue: the bundled snapshots of all three providers
synced through the real adapters into SQLite (${records.summary.total_instances} available records). Body:
\`${BODY}\`. Every request comes from a new client address, so each pays a real rate-limit
count. The baseline is a bare \`node:http\` server that reads the POST body and answers with a
body of the same size. /recommend has no response cache: each request computes the
requirements and scores, ranks, de-duplicates and explains its candidates. The candidate list
itself (records with enough memory, one indexed query) is kept per query until the catalogue
changes (src/recommend/candidate-cache.ts).

${table}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
