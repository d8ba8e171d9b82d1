// npx tsx bench/before-after.ts <other tree> [new-filter|new-filter-eur|cached|instance-types|instance-types-option|recommend|recommend-new-budget]
// [catalogue] — this tree's app
// against another checkout's app (for example `git archive <base> | tar -x -C /tmp/base`, with
// node_modules linked in), both as `npm start` runs them (each tree's `npm run build`, then its
// `node dist/src/main.js`, logging at info to a file: bench/support/shipped-server.ts), side by
// side in one run on one database: the same wrk load, rounds alternating, the median of the
// rounds' ratios (this tree over the other), requests/s and CPU per request. For before/after
// comparisons of a change on a loaded machine, where numbers from two runs cannot be compared.
// recommend: POST /recommend with one body (the answer memo's path); recommend-new-budget: a
// budget_max never sent before on every request (each one ranks anew, as a budget slider does).
// new-filter-eur: new-filter in another currency (D43: the records' EUR text). instance-types:
// GET /instance-types?limit=50 repeated (its response memo's path). instance-types-option: a
// new max_price per request with purchase_option=reserved_1y (D61: every record handed out is
// a view priced by the option; use the `generated-options:<records>` catalogue).
// <other tree> may instead be `env:NAME=VALUE[,NAME=VALUE...]`: this tree against itself run
// with those settings (`env:CACHE_MAX_ENTRIES=0` is this tree without its response cache).
// BENCH_APP_ENV=NAME=VALUE[,...] gives both sides those settings (METRICS_PORT=0: metrics on).
// BENCH_BARE=1 (GET cases): then each tree's answer to one sample request (`{price}` = 260) is
// sent by a bare node:http server (bench/support/bare-server.ts), the two bare servers side by
// side the same way: what the bytes alone cost each tree, and each tree's own work (its CPU per
// request less its bare server's), for trees whose answers differ in size.
// Prints the rounds; writes nothing. catalogue: `snapshots` (default) or `generated:<records>`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  APP,
  BARE,
  CACHED_PATH,
  KEY,
  NEW_FILTER_PATH,
  fill,
  startApp,
} from './support/app-bench.js';
import { capture, writeForBare } from './support/capture.js';
import { startServer } from './support/server-process.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { uptime } from './support/report.js';
import { buildShipped } from './support/shipped-server.js';
import {
  CONNECTIONS,
  cpuMicros,
  roundsTable,
  sideBySide,
  type SideBySide,
} from './support/side-by-side.js';
import { requireWrk } from './support/wrk.js';

const [other, which = 'new-filter', catalogue = 'snapshots'] = process.argv.slice(2);
if (other === undefined) {
  console.error(
    'usage: tsx bench/before-after.ts <other tree | env:NAME=VALUE,...> [new-filter|new-filter-eur|cached|instance-types|instance-types-option|recommend|recommend-new-budget] [catalogue]',
  );
  process.exit(2);
}
requireWrk();
/** The instance-types case: one query asked again and again, as the Regions view's table. */
const INSTANCE_TYPES_PATH = '/instance-types?limit=50';
/** Each GET case's path (`{price}`: a new max_price per request); the others POST /recommend. */
const GET_PATHS: Readonly<Record<string, string>> = {
  'new-filter': NEW_FILTER_PATH,
  'new-filter-eur': `${NEW_FILTER_PATH}&currency=EUR`,
  cached: CACHED_PATH,
  'instance-types': INSTANCE_TYPES_PATH,
  'instance-types-option': `${INSTANCE_TYPES_PATH}&purchase_option=reserved_1y&max_price={price}`,
};
if (!Object.hasOwn(GET_PATHS, which) && !which.startsWith('recommend')) {
  console.error(
    `unknown case ${which}: ${[...Object.keys(GET_PATHS), 'recommend', 'recommend-new-budget'].join(', ')}`,
  );
  process.exit(2);
}
// Both trees built and started the same way: the comparison is of the code (or of the settings).
const settings = (list: string): Record<string, string> =>
  Object.fromEntries(
    list
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
const bothEnv = settings(process.env.BENCH_APP_ENV ?? '');
const otherEnv = { ...bothEnv, ...(other.startsWith('env:') ? settings(other.slice(4)) : {}) };
const otherApp = other.startsWith('env:') ? APP : buildShipped(path.resolve(other));
const otherName = other.startsWith('env:') ? other.slice(4) : path.basename(path.resolve(other));
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-before-after-'));
/** The /recommend cases' body; `{price}` is replaced per request by bench/wrk/new-client.lua. */
const RECOMMEND_BODY = `{"stack":["nginx","nodejs","postgresql","redis"],"scale":"medium","budget_max":${
  which === 'recommend-new-budget' ? '{price}' : '80'
}}`;
// Another tree gets a database of its own, filled by its own code: a schema migrated by this
// tree's newer code would stop an older server (unknown migrations), and each tree serves the
// bundled snapshots it ships (as `npm start` would).
const otherDir = other.startsWith('env:')
  ? dir
  : mkdtempSync(path.join(tmpdir(), 'cloudprice-before-after-other-'));
try {
  await fill(dir, catalogue);
  if (otherDir !== dir) await fill(otherDir, catalogue, path.resolve(other));
  const bodyFile = path.join(dir, 'recommend.request.json');
  writeFileSync(bodyFile, RECOMMEND_BODY);
  const recommend = which.startsWith('recommend');
  console.log(`start: load ${uptime()}`);
  const mine = startApp(dir, bothEnv);
  const theirs = startApp(otherDir, otherEnv, [], otherApp);
  try {
    const getPath = GET_PATHS[which];
    const headers = { 'x-api-key': KEY, ...(recommend && { 'content-type': 'application/json' }) };
    const shared = {
      path: getPath ?? '/recommend',
      connections: CONNECTIONS,
      clientHeader: CLIENT_HEADER,
      headers,
      ...(recommend && { method: 'POST' as const, bodyFile }),
    };
    const result = await sideBySide(
      { name: 'this tree', url: await mine.url, pid: mine.pid },
      { name: otherName, url: await theirs.url, pid: theirs.pid },
      shared,
    );
    console.log(
      `\n${which} on ${catalogue}: median ratio ${result.medianRatio.toFixed(3)}, ` +
        `CPU per request, this tree's over the other's ${result.medianCpuRatio.toFixed(3)}`,
    );
    console.log(roundsTable(result));
    if (process.env.BENCH_BARE === '1' && getPath !== undefined) {
      await bareSideBySide(result, getPath, [
        { name: 'this tree', url: await mine.url },
        { name: otherName, url: await theirs.url },
      ]);
    }
    console.log(`end: load ${uptime()}`);
  } finally {
    await Promise.all([mine.stop(), theirs.stop()]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(otherDir, { recursive: true, force: true });
}

/**
 * Each app's answer to the sample request, sent by a bare server, the two side by side; then
 * each tree's own work per request: its CPU per request in `apps` less its bare server's.
 */
async function bareSideBySide(
  apps: SideBySide,
  getPath: string,
  trees: readonly [{ name: string; url: string }, { name: string; url: string }],
): Promise<void> {
  const sample = getPath.replace('{price}', '260');
  const servers = trees.map((tree, i) => {
    const file = path.join(dir, `bare-${i}.body`);
    return capture(`${tree.url}${sample}`, {
      headers: { 'x-api-key': KEY, [CLIENT_HEADER]: `bare-sample-${i}` },
    }).then((answer) => {
      writeForBare(file, answer);
      console.log(`${tree.name}: ${answer.body.length} B answer to ${sample}`);
      return startServer(BARE, [file]);
    });
  });
  const [mineBare, theirsBare] = await Promise.all(servers);
  try {
    const bare = await sideBySide(
      { name: `bare (${trees[0].name}'s bytes)`, url: await mineBare!.url, pid: mineBare!.pid },
      { name: `bare (${trees[1].name}'s bytes)`, url: await theirsBare!.url, pid: theirsBare!.pid },
      { path: sample, connections: CONNECTIONS, clientHeader: CLIENT_HEADER, headers: {} },
    );
    const own = (who: 'a' | 'b') => Number(cpuMicros(apps, who)) - Number(cpuMicros(bare, who));
    console.log(
      `\nbare servers: CPU µs/request ${cpuMicros(bare, 'a')} (${trees[0].name}'s bytes) / ` +
        `${cpuMicros(bare, 'b')} (${trees[1].name}'s); own work (app less bare, median rounds): ` +
        `${trees[0].name} ${own('a').toFixed(1)} µs, ${trees[1].name} ${own('b').toFixed(1)} µs, ` +
        `ratio ${(own('a') / own('b')).toFixed(3)}`,
    );
    console.log(roundsTable(bare));
  } finally {
    await Promise.all([mineBare!.stop(), theirsBare!.stop()]);
  }
}
