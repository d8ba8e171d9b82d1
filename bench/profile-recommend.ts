// npx tsx bench/profile-recommend.ts [records=50000] [seconds=5] — where ranking a NEW POST
// /recommend body spends its CPU, in-process: rotating new bodies (stack pairs, scales, budgets)
// over a generated catalogue, under a V8 CPU profile (node:inspector), then the functions with the
// most self time. Prints them; writes nothing.
// The generated catalogue has a record set per installed provider: install the registry's.
import '../src/providers/registry.js';
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateInstanceRows } from '../test/support/generate-catalog.js';
import { CatalogIndex } from '../src/catalog/index/catalog-index.js';
import { computeRecommendations, prepareRecommend } from '../src/recommend/recommend-service.js';
import { topFrames } from './support/cpu-profile.js';
import { uptime } from './support/report.js';

const records = Number(process.argv[2] ?? 50_000);
const seconds = Number(process.argv[3] ?? 5);
const STACKS = ['nginx', 'php-fpm', 'mysql', 'postgresql', 'redis', 'nodejs', 'mongodb'];
const index = CatalogIndex.build({
  version: 1,
  lastSuccessfulSync: null,
  rows: generateInstanceRows(records, 42, Date.UTC(2026, 10, 1)),
});
const deps = {
  catalog: { current: index, ready: () => Promise.resolve(index) },
  rates: { current: () => undefined, currencies: () => ['USD'] },
  config: { dataStaleDays: 90 },
};
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const start = performance.now();
let n = 0;
while (performance.now() - start < seconds * 1000) {
  const body = {
    stack: [STACKS[n % STACKS.length], STACKS[(n + 3) % STACKS.length]],
    scale: ['small', 'medium', 'large'][n % 3],
    budget_max: 20 + ((n * 7.31) % 480),
  };
  const prepared = await prepareRecommend(body, deps);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.error));
  JSON.stringify(computeRecommendations(prepared));
  n += 1;
}
const ms = performance.now() - start;
const { profile } = await session.post('Profiler.stop');
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-profile-recommend-'));
writeFileSync(path.join(dir, 'main.cpuprofile'), JSON.stringify(profile));
console.log(
  `${records} records: ${n} new bodies in ${ms.toFixed(0)} ms, ${((ms * 1000) / n).toFixed(0)} µs each (load ${uptime()})`,
);
const top = topFrames(dir, 15, path.resolve(import.meta.dirname, '..'));
console.log(JSON.stringify(top, null, 1));
rmSync(dir, { recursive: true });
