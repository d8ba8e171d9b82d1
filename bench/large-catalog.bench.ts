// npm run bench:large — a generated catalogue of 50,000 records (test/support/generate-catalog.ts,
// written through the store as a sync writes): /instances with a max_price never used before on
// every request, side by side with a bare node:http server sending the same bytes and headers;
// the index build time the app logs; and the memory the catalogue costs (RSS of the app serving
// it minus RSS of the same app on an empty catalogue) and what the load adds.
// Writes its section of docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  NEW_FILTER_PATH,
  availableRecords,
  fill,
  instancesCase,
  method,
  startApp,
} from './support/app-bench.js';
import { emptyServerRss, indexBuildMs, settledRss } from './support/catalogue-memory.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { cpuMicros, roundsTable, verdict } from './support/side-by-side.js';
import { AddressSpace, requireWrk } from './support/wrk.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 50_000);
const CATALOGUE = `generated:${RECORDS}`;

requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-large-'));
const loadAtStart = uptime();
try {
  const fillStarted = performance.now();
  await fill(dir, CATALOGUE);
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  const emptyRss = await emptyServerRss();

  const app = startApp(dir);
  let records: number;
  let startedRss: number;
  let endRss: number;
  let result;
  let buildMs: number | undefined;
  try {
    records = await availableRecords(app);
    startedRss = await settledRss(app, 'large');
    buildMs = indexBuildMs(app);
    result = await instancesCase(
      'new filter, large',
      app,
      dir,
      NEW_FILTER_PATH,
      NEW_FILTER_PATH.replace('{price}', '260.000001'),
      new AddressSpace(),
    );
    endRss = app.rssMb();
  } finally {
    await app.stop();
  }
  const catalogueMb = startedRss - emptyRss;
  const loadMb = endRss - startedRss;
  const summary = [
    `- new filter value on every request: CPU per request bare ÷ ours **${result.result.medianCpuShare.toFixed(2)}** ` +
      `(${cpuMicros(result.result, 'b')} µs vs ${cpuMicros(result.result, 'a')} µs in the median round), ` +
      `${verdict(result.result.medianCpuShare, 0.25)}; requests/s ${result.result.medianRatio.toFixed(2)} of bare; ` +
      `cloudprice p99 ${result.result.medianRoundP99Ms.toFixed(1)} ms in the median round`,
    buildMs === undefined
      ? '- index build: not logged (this build has no catalogue index)'
      : `- index build (the app's "catalogue index built" log line, build_ms): **${buildMs} ms**, ${verdict(buildMs, 1000, true)}`,
    `- RSS growth for the catalogue (settled RSS serving ${records} records ${startedRss.toFixed(1)} MB ` +
      `minus the same server on an empty catalogue ${emptyRss.toFixed(1)} MB): **${catalogueMb.toFixed(1)} MB**, ${verdict(catalogueMb, 100, true)}`,
    `- RSS growth during the load rounds (response cache under distinct queries, rate-limit counters of ` +
      `every new address, garbage): ${loadMb.toFixed(1)} MB (${startedRss.toFixed(1)} → ${endRss.toFixed(1)} MB)`,
  ].join('\n');
  console.log(summary);
  writeSection(
    'large',
    `## A generated catalogue of ${RECORDS.toLocaleString('en-US')} records (issue 23, as shipped)

Command: \`npm run bench:large\` (bench/large-catalog.bench.ts; \`BENCH_RECORDS\` changes the size).
${machineLine()}. Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Catalogue: \`generateCatalogs(${RECORDS}, 42)\` (test/support/generate-catalog.ts) written through
the store into SQLite in a separate process first (${fillSeconds.toFixed(1)} s), then served by
a fresh process (${records} available records). Method: ${method()} RSS is VmRSS from /proc,
MB = 10^6 bytes, read 2 s after 50 warm-up requests.

${summary}

\`${NEW_FILTER_PATH}\`; the bare server sends the app's answer for max_price=260.000001 (${result.bodyBytes} B).

${roundsTable(result.result)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
