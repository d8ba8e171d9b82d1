// npx tsx bench/trace-gc.ts [tree] [catalogue] [new|cached] — how often V8 collects under
// /instances load (`new`: a max_price never asked before on every request; `cached`: one query
// asked again and again): a tree's app (default this one; another checkout for before/after)
// started with `node --trace-gc`, 3 s of wrk to warm up, then 10 s counted: requests,
// Mark-Compacts and Scavenges with their summed pause (the first number of each trace line's
// "x / y ms"). Another tree's database is filled by this tree's code, so only trees with the
// same migrations can be compared here (bench/before-after.ts fills each tree by its own).
// Prints the counts; writes nothing. catalogue: `snapshots` (default) or `generated:<records>`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CACHED_PATH, KEY, NEW_FILTER_PATH, fill, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { uptime } from './support/report.js';
import { buildShipped } from './support/shipped-server.js';
import { CONNECTIONS } from './support/side-by-side.js';
import { requireWrk, runWrk } from './support/wrk.js';

const [tree = path.resolve(import.meta.dirname, '..'), catalogue = 'snapshots', mode = 'new'] =
  process.argv.slice(2);
if (mode !== 'new' && mode !== 'cached') throw new Error(`mode is new or cached, not ${mode}`);
requireWrk();
const main = buildShipped(path.resolve(tree));
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-trace-gc-'));
try {
  await fill(dir, catalogue);
  // --trace-gc prints to stdout, which goes to the server's log file with its own lines.
  const app = startApp(dir, {}, ['--trace-gc'], main);
  const url = await app.url;
  const load = (seconds: number, firstAddress: number) =>
    runWrk({
      url: `${url}${mode === 'new' ? NEW_FILTER_PATH : CACHED_PATH}`,
      seconds,
      connections: CONNECTIONS,
      clientHeader: CLIENT_HEADER,
      firstAddress,
      headers: { 'x-api-key': KEY },
    });
  const warm = await load(3, 0);
  const from = app.logBytes();
  const result = await load(10, warm.addressesUsed + 1);
  const to = app.logBytes();
  await app.stop();
  const counted = readFileSync(app.logFile).subarray(from, to).toString('utf8');
  const counts = { 'Mark-Compact': { n: 0, ms: 0 }, Scavenge: { n: 0, ms: 0 } };
  for (const line of counted.split('\n')) {
    for (const kind of ['Mark-Compact', 'Scavenge'] as const) {
      // `Scavenge 4.4 (5.1) -> 3.9 (6.1) MB, [pooled: 0 MB, ]2.01 / 0.00 ms` (Node 22 adds `pooled`).
      const match = new RegExp(`${kind} [^,]*, (?:pooled: [\\d.]+ MB, )?([\\d.]+) /`).exec(line);
      if (match) {
        counts[kind].n += 1;
        counts[kind].ms += Number(match[1]);
      }
    }
  }
  const mc = counts['Mark-Compact'];
  const sc = counts.Scavenge;
  console.log(
    `${tree} on ${catalogue}, ${mode}: ${result.requests} requests (${Math.round(result.requestsPerSecond)} req/s, ` +
      `p99 ${result.p99Ms.toFixed(1)} ms) in 10 s; Mark-Compact ${mc.n} (${mc.ms.toFixed(0)} ms), ` +
      `Scavenge ${sc.n} (${sc.ms.toFixed(0)} ms); load ${uptime()}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
