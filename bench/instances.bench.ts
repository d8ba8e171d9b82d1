// npm run bench:instances — GET /instances on the real catalogue (the bundled snapshots of all
// three providers, synced through the real adapters), each case side by side with a bare
// node:http server sending the same bytes and headers, in one run (bench/support/side-by-side.ts):
//   - new filter: a max_price never used before on every request (every request misses the
//     response cache, as a person moving a price slider makes it);
//   - cached: one query, answered from the response cache.
// Every request comes from a new client address. The app runs as `npm start` runs it, logging at
// info to a file (bench/support/shipped-server.ts). Writes its section of docs/performance.md.
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
import { cpuMicros, roundsTable, verdict } from './support/side-by-side.js';
import { AddressSpace, requireWrk } from './support/wrk.js';

interface LoggedCase extends InstancesCase {
  /** Request lines the app wrote to its log file, and the file's size, at the end of the case. */
  readonly logLines: number;
  readonly logBytes: number;
}

/** Requests the app answered in the case: warm-up and rounds, plus the harness's captures. */
function answered(c: InstancesCase): number {
  return c.result.rounds.reduce((sum, r) => sum + r.a.requests, c.result.warmupRequests) + 3;
}

/** The case's CPU-per-request ratio (bare ÷ ours) against its issue 23 target. */
function cpuLine(name: string, c: InstancesCase, target: number): string {
  const share = c.result.medianCpuShare;
  return (
    `- ${name}: CPU per request bare ÷ ours **${share.toFixed(2)}** ` +
    `(${cpuMicros(c.result, 'b')} µs vs ${cpuMicros(c.result, 'a')} µs in the median round), ${verdict(share, target)}`
  );
}

async function main(): Promise<void> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-instances-'));
  const addresses = new AddressSpace();
  const loadAtStart = uptime();
  try {
    await fill(dir, 'snapshots');
    const cases: LoggedCase[] = [];
    let records = 0;
    for (const [name, wrkPath, samplePath, withCeiling] of [
      ['new filter', NEW_FILTER_PATH, NEW_FILTER_PATH.replace('{price}', '260.000001'), false],
      ['cached', CACHED_PATH, CACHED_PATH, true],
    ] as const) {
      const app = startApp(dir);
      try {
        records = await availableRecords(app);
        const result = await instancesCase(
          name,
          app,
          dir,
          wrkPath,
          samplePath,
          addresses,
          withCeiling,
        );
        cases.push({ ...result, logLines: app.requestLines(), logBytes: app.logBytes() });
      } finally {
        await app.stop();
      }
    }
    const [newFilter, cached] = cases as [LoggedCase, LoggedCase];
    const summary = [
      cpuLine('new filter value on every request', newFilter, 0.3) +
        `; requests/s **${newFilter.result.medianRatio.toFixed(2)}** of bare; cloudprice p99 ` +
        `${newFilter.result.medianRoundP99Ms.toFixed(1)} ms in the median round (worst round ` +
        `${newFilter.result.worstP99Ms.toFixed(1)} ms)`,
      cpuLine('cached', cached, 0.45) +
        `; requests/s **${cached.result.medianRatio.toFixed(2)}** of bare`,
      ...(cached.ceiling
        ? [
            `- framework ceiling: plain Fastify (no logger) sending the cached answer's bytes and ` +
              `headers keeps **${cached.ceiling.medianCpuShare.toFixed(2)}** of bare's CPU per request ` +
              `(requests/s ${cached.ceiling.medianRatio.toFixed(2)})`,
          ]
        : []),
      ...cases.map(
        (c) =>
          `- log (${c.name}): ${c.logLines.toLocaleString('en-US')} request lines, ` +
          `${(c.logBytes / 1e6).toFixed(1)} MB, for ${answered(c).toLocaleString('en-US')} requests wrk counted (D60: one line each; the server also answers the requests in flight when a run stops)`,
      ),
    ].join('\n');
    console.log(summary);
    writeSection(
      'instances',
      `## GET /instances (issue 23, as shipped)

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
server, in the same run after the cached rounds: what the framework alone keeps of bare.

${cached.ceiling ? roundsTable(cached.ceiling) : ''}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
