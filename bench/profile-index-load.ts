// npx tsx bench/profile-index-load.ts [records=50000] [other tree] — the catalogue index loaded
// from a SQLite store the way the app loads it (CatalogIndexHolder.ready(): the store's read and
// the build), in a fresh process per load, measuring what the load costs in memory: the peak RSS
// during it (VmHWM), the heap and RSS right after it (garbage included), and what stays after a
// full GC (node --expose-gc). With another tree (a checkout with node_modules), loads alternate
// between the two trees on the same database file, so a loaded machine compares like with like.
// Prints; writes nothing. Issue 9 (RSS growth of a 50,000-record catalogue).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as HolderModule from '../src/catalog/index/catalog-index-holder.js';
import type * as SqliteStoreModule from '../src/storage/sqlite/sqlite-catalog-store.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const mb = (bytes: number) => bytes / 1e6;

/** VmRSS or VmHWM (peak RSS) of this process, in bytes. */
function status(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (line === undefined) throw new Error(`no ${field} in /proc/self/status`);
  return Number(line.split(/\s+/)[1]) * 1024;
}

interface LoadResult {
  readonly records: number;
  readonly ms: number;
  readonly peakRssMb: number;
  readonly afterHeapMb: number;
  readonly afterRssMb: number;
  readonly keptHeapMb: number;
  readonly keptRssMb: number;
}

/** Child: one load from `file` with `tree`'s code; prints a LoadResult as JSON. */
async function load(tree: string, file: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const src = (module: string) => pathToFileURL(path.join(tree, 'src', module)).href;
  // The other tree's modules, typed as this tree's (the two APIs the load uses are stable).
  const { openSqliteCatalogStore } = (await import(
    src('storage/sqlite/sqlite-catalog-store.ts')
  )) as typeof SqliteStoreModule;
  const { CatalogIndexHolder } = (await import(
    src('catalog/index/catalog-index-holder.ts')
  )) as typeof HolderModule;
  const store = openSqliteCatalogStore(file);
  await store.catalogVersion(); // opens everything the load needs besides the read itself
  gc();
  gc();
  const before = { heap: process.memoryUsage().heapUsed, rss: status('VmRSS') };
  const started = performance.now();
  const index = await new CatalogIndexHolder(store, { pollIntervalMs: 0 }).ready();
  const ms = performance.now() - started;
  const peak = status('VmHWM');
  const after = { heap: process.memoryUsage().heapUsed, rss: status('VmRSS') };
  gc();
  gc();
  const kept = { heap: process.memoryUsage().heapUsed, rss: status('VmRSS') };
  const result: LoadResult = {
    records: index.size,
    ms,
    peakRssMb: mb(peak - before.rss),
    afterHeapMb: mb(after.heap - before.heap),
    afterRssMb: mb(after.rss - before.rss),
    keptHeapMb: mb(kept.heap - before.heap),
    keptRssMb: mb(kept.rss - before.rss),
  };
  await store.close();
  console.log(JSON.stringify(result));
}

async function fill(file: string, records: number): Promise<void> {
  const { openSqliteCatalogStore } = await import('../src/storage/sqlite/sqlite-catalog-store.js');
  const { generateCatalogs, loadCatalogs } = await import('../test/support/generate-catalog.js');
  const store = openSqliteCatalogStore(file);
  try {
    await store.migrate();
    await loadCatalogs(store, generateCatalogs(records, 42));
  } finally {
    await store.close();
  }
}

function runLoad(tree: string, file: string): LoadResult {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--load', tree, file],
    { encoding: 'utf8', cwd: tree },
  );
  if (run.status !== 0) throw new Error(`load with ${tree} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as LoadResult;
}

const args = process.argv.slice(2);
if (args[0] === '--load') {
  await load(args[1]!, args[2]!);
} else {
  const records = Number(args[0] ?? 50_000);
  const trees = [ROOT, ...(args[1] === undefined ? [] : [path.resolve(args[1])])];
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-index-load-'));
  try {
    const file = path.join(dir, 'catalog.db');
    await fill(file, records);
    const f = (value: number) => value.toFixed(1);
    console.log(
      'tree | records | load ms | peak RSS | heap after | RSS after | heap kept | RSS kept',
    );
    for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
      for (const tree of trees) {
        const r = runLoad(tree, file);
        console.log(
          `${tree} | ${r.records} | ${r.ms.toFixed(0)} | ${f(r.peakRssMb)} | ${f(r.afterHeapMb)} | ` +
            `${f(r.afterRssMb)} | ${f(r.keptHeapMb)} | ${f(r.keptRssMb)}`,
        );
      }
    }
    console.log('MB = 10^6 bytes, each over the same process just before the load.');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
