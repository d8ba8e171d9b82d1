// npm run bench:instances — GET /instances on the real catalogue (the bundled snapshots of all
// three providers, synced through the real adapters), each case side by side with a bare
// node:http server sending the same bytes and headers, in one run (bench/support/side-by-side.ts):
//   - new filter: a max_price never used before on every request (every request misses the
//     response cache, as a person moving a price slider makes it);
//   - cached: one query, answered from the response cache.
// Every request comes from a new client address. Writes its section of docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CACHED_PATH,
  NEW_FILTER_PATH,
  availableRecords,
  fill,
  instancesCase,
  method,
  startApp,
  type InstancesCase,
} from './support/app-bench.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { roundsTable, verdict } from './support/side-by-side.js';
import { AddressSpace, requireWrk } from './support/wrk.js';

async function main(): Promise<void> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-instances-'));
  const addresses = new AddressSpace();
  const loadAtStart = uptime();
  try {
    await fill(dir, 'snapshots');
    const cases: InstancesCase[] = [];
    let records = 0;
    for (const [name, wrkPath, samplePath, withCeiling] of [
      ['new filter', NEW_FILTER_PATH, NEW_FILTER_PATH.replace('{price}', '260.000001'), false],
      ['cached', CACHED_PATH, CACHED_PATH, true],
    ] as const) {
      const app = startApp(dir, 'snapshots');
      try {
        records = await availableRecords(app);
        cases.push(
          await instancesCase(name, app, dir, wrkPath, samplePath, addresses, withCeiling),
        );
      } finally {
        await app.stop();
      }
    }
    const [newFilter, cached] = cases as [InstancesCase, InstancesCase];
    const summary = [
      `- new filter value on every request: **${newFilter.result.medianRatio.toFixed(2)}** of bare, ` +
        `${verdict(newFilter.result.medianRatio, 0.5)}; cloudprice p99 ${newFilter.result.medianRoundP99Ms.toFixed(1)} ms ` +
        `in the median round (worst round ${newFilter.result.worstP99Ms.toFixed(1)} ms), ${verdict(newFilter.result.worstP99Ms, 20, true)}`,
      `- cached: **${cached.result.medianRatio.toFixed(2)}** of bare, ${verdict(cached.result.medianRatio, 0.8)}`,
      ...(cached.ceiling
        ? [
            `- framework ceiling: plain Fastify sending the cached answer's bytes and headers is ` +
              `**${cached.ceiling.medianRatio.toFixed(2)}** of the same bare server; the cached ` +
              `case is **${(cached.result.medianRatio / cached.ceiling.medianRatio).toFixed(2)}** of that`,
          ]
        : []),
    ].join('\n');
    console.log(summary);
    writeSection(
      'instances',
      `## GET /instances (issue 9)

Command: \`npm run bench:instances\` (bench/instances.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Catalogue: the bundled snapshots of all three providers synced through the real adapters into
SQLite (${records} available records). Method: ${method()}

${summary}

New filter value: \`${NEW_FILTER_PATH}\`, \`{price}\` a max_price never used before in the run
(spread over $20-$500 by the Lua script); the bare server sends the app's answer for
max_price=260.000001 (${newFilter.bodyBytes} B).

${roundsTable(newFilter.result)}

Cached: \`${CACHED_PATH}\` (${cached.bodyBytes} B), a response-cache hit after the first request.

${roundsTable(cached.result)}

Framework ceiling: \`bench/support/fastify-server.ts\` (Fastify 5 with its defaults: no logger,
no hooks, one route) sending the cached answer's bytes and headers, against the same bare
server, in the same run after the cached rounds.

${cached.ceiling ? roundsTable(cached.ceiling) : ''}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
