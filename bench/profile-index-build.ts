// npx tsx bench/profile-index-build.ts [records=50000] — the catalogue index build alone: a
// generated catalogue (test/support/generate-catalog.ts) as the rows a store snapshot gives,
// then CatalogIndex.build timed BENCH_BUILDS (3) times, and the heap and RSS the built index
// keeps after a full GC (node --expose-gc; the script re-runs itself with it). Run it under
// `node --cpu-prof --import tsx` to see where the build spends its time. Prints; writes nothing.
// The generated catalogue has a record set per installed provider: install the registry's.
import '../src/providers/registry.js';
import { spawnSync } from 'node:child_process';
import { CatalogIndex } from '../src/catalog/index/catalog-index.js';
import type { InstanceRow } from '../src/catalog/records.js';
import { generateInstanceRows } from '../test/support/generate-catalog.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}

const records = Number(process.argv[2] ?? 50_000);
const builds = Number(process.env.BENCH_BUILDS ?? 3);
const observedAt = Date.UTC(2026, 10, 1);

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
// Held in an object so that dropping them (for the GC) is explicit.
const held: { rows?: InstanceRow[]; index?: CatalogIndex } = {
  rows: generateInstanceRows(records, 42, observedAt),
};
gc();
const before = process.memoryUsage();
const times: number[] = [];
for (let i = 0; i < builds; i++) {
  delete held.index;
  gc();
  const started = performance.now();
  held.index = CatalogIndex.build({ version: i + 1, lastSuccessfulSync: null, rows: held.rows! });
  times.push(performance.now() - started);
}
const peak = process.memoryUsage();
delete held.rows; // the snapshot is garbage once the index is built
gc();
gc();
const after = process.memoryUsage();
console.log(
  `${held.index!.size} records: build ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}; ` +
    `kept after GC (snapshot rows dropped): heap ${mb(after.heapUsed - before.heapUsed)} MB, ` +
    `external+arrayBuffers ${mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers)} MB, ` +
    `RSS ${mb(after.rss - before.rss)} MB (RSS right after the builds ${mb(peak.rss - before.rss)} MB); ` +
    `index arrays ${mb(held.index!.arrayBytes)} MB`,
);
