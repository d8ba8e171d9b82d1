// npx tsx bench/recommend-rank.ts [records=2416] [other tree] — the cost of ranking a NEW
// POST /recommend body, in-process (no HTTP, no memo): a generated catalogue
// (test/support/generate-catalog.ts) built into a CatalogIndex, then prepare + compute for a
// rotating set of bodies (every stack pair x scale x budget: what a UI slider sends; each body
// is new to the answer memo). First each body once, in order, on a fresh index: p50/p99 of
// those first askings. Then, with
// another checkout's path, that tree's modules rank the same bodies over the same rows,
// alternating rounds in one process, and each answer's JSON is compared byte for byte. Prints
// milliseconds per first asking and microseconds per request; writes nothing.
// The generated catalogue has a record set per installed provider: install the registry's.
import '../src/providers/registry.js';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateInstanceRows } from '../test/support/generate-catalog.js';
import type * as IndexModuleNs from '../src/catalog/index/catalog-index.js';
import type * as ServiceModuleNs from '../src/recommend/recommend-service.js';
import { uptime } from './support/report.js';

const records = Number(process.argv[2] ?? 2416);
const other = process.argv[3];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const observedAt = Date.UTC(2026, 10, 1);

const STACKS = [
  'nginx',
  'php-fpm',
  'mysql',
  'postgresql',
  'redis',
  'elasticsearch',
  'nodejs',
  'mongodb',
];
const bodies: unknown[] = [];
for (let a = 0; a < STACKS.length; a++) {
  for (let b = a + 1; b < STACKS.length; b++) {
    for (const scale of ['small', 'medium', 'large']) {
      for (const budget of [20, 35.5, 80, 150, 400]) {
        bodies.push({ stack: [STACKS[a], STACKS[b]], scale, budget_max: budget });
      }
    }
  }
}

interface Tree {
  name: string;
  run: (body: unknown) => Promise<string>;
}

type IndexModule = typeof IndexModuleNs;
type ServiceModule = typeof ServiceModuleNs;

async function tree(root: string, name: string): Promise<Tree> {
  // The other tree's modules have the same shape (it is an older checkout of this code).
  const load = <M>(p: string) => import(pathToFileURL(path.join(root, p)).href) as Promise<M>;
  // Each tree's modules keep their own installed providers: its registry installs them.
  await load<object>('src/providers/registry.ts');
  const { CatalogIndex } = await load<IndexModule>('src/catalog/index/catalog-index.ts');
  const service = await load<ServiceModule>('src/recommend/recommend-service.ts');
  const index = CatalogIndex.build({
    version: 1,
    lastSuccessfulSync: null,
    rows: generateInstanceRows(records, 42, observedAt),
  });
  const deps = {
    catalog: { current: index, ready: () => Promise.resolve(index) },
    rates: { current: () => undefined, currencies: () => ['USD'] },
    config: { dataStaleDays: 90 },
  };
  return {
    name,
    async run(body) {
      const prepared = await service.prepareRecommend(body, deps);
      if (!prepared.ok) throw new Error(JSON.stringify(prepared.error));
      return JSON.stringify(service.computeRecommendations(prepared));
    },
  };
}

const here = path.resolve(import.meta.dirname, '..');
const trees = [await tree(here, 'this tree')];
{
  // Wall time, and this process's CPU time (less disturbed by other processes on a shared host).
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const body of bodies) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    await trees[0]!.run(body);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - start);
  }
  const at = (xs: number[], q: number) =>
    [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(2);
  console.log(
    `${records} records, ${bodies.length} bodies, each asked once: wall p50 ${at(wall, 0.5)} ms, p99 ${at(wall, 0.99)} ms; CPU p50 ${at(cpu, 0.5)} ms, p99 ${at(cpu, 0.99)} ms (load ${uptime()})`,
  );
}
if (other !== undefined) trees.push(await tree(path.resolve(other), `other (${other})`));
if (trees.length === 2) {
  for (const body of bodies) {
    const [a, b] = [await trees[0]!.run(body), await trees[1]!.run(body)];
    if (a !== b) throw new Error(`answers differ for ${JSON.stringify(body)}`);
  }
  console.log(`${bodies.length} bodies: identical answers in both trees`);
}
const perRequest: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const t of round % 2 === 0 ? trees : [...trees].reverse()) {
    for (const body of bodies) await t.run(body); // warm
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < 1000) {
      await t.run(bodies[n % bodies.length]);
      n += 1;
    }
    (perRequest[t.name] ??= []).push(((performance.now() - start) * 1000) / n);
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(
  `${records} records, ${bodies.length} rotating bodies, ${ROUNDS} rounds of 1 s, load ${uptime()}`,
);
for (const [name, us] of Object.entries(perRequest)) {
  console.log(
    `${name}: median ${median(us).toFixed(1)} µs per new body (rounds ${us.map((u) => u.toFixed(0)).join(', ')})`,
  );
}
