// npm run bench:metrics — what collecting Prometheus metrics costs (issue 13 item 1: at most 5%
// of cached /instances throughput): the app with METRICS_PORT set (every metric collected, its
// listener up, scraped before and after to show the counters moved) side by side with the
// same app without it, on the same database, in one run (bench/support/side-by-side.ts).
// Writes its section of docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CACHED_PATH, KEY, availableRecords, fill, method, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { CONNECTIONS, roundsTable, sideBySide, verdict } from './support/side-by-side.js';
import { requireWrk } from './support/wrk.js';

requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-metrics-'));
const loadAtStart = uptime();
try {
  await fill(dir, 'snapshots');
  const on = startApp(dir, { METRICS_PORT: '0' });
  const off = startApp(dir);
  try {
    const [onUrl, offUrl] = await Promise.all([on.url, off.url]);
    // The banner announces the listener (main.ts): "Prometheus metrics on <url>/metrics".
    const metricsUrl = on.logs.find((l) => typeof l.metricsUrl === 'string')?.metricsUrl;
    if (typeof metricsUrl !== 'string') throw new Error('the metrics listener did not start');
    const records = await availableRecords(off);
    const scrape = async () => {
      const text = await fetch(`${metricsUrl}/metrics`).then((r) => r.text());
      let total = 0;
      for (const match of text.matchAll(
        /^cloudprice_http_requests_total\{(?=[^}]*route="\/instances")(?=[^}]*status="200")[^}]*\} (\d+)$/gm,
      ))
        total += Number(match[1]);
      return { total, bytes: text.length };
    };
    // Fill the cache of each.
    for (const url of [onUrl, offUrl]) {
      await fetch(`${url}${CACHED_PATH}`, {
        headers: { 'x-api-key': KEY, [CLIENT_HEADER]: 'capture-1' },
      }).then((r) => r.arrayBuffer());
    }
    const before = await scrape();
    let answered = 0;
    const result = await sideBySide(
      { name: 'metrics on', url: onUrl, pid: on.pid },
      { name: 'metrics off', url: offUrl, pid: off.pid },
      {
        path: CACHED_PATH,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
      },
    );
    for (const round of result.rounds) answered += round.a.requests;
    const after = await scrape();
    const overhead = 1 - result.medianRatio;
    const summary = [
      `- cached /instances with metrics on / off: **${result.medianRatio.toFixed(3)}**, ` +
        `overhead **${(overhead * 100).toFixed(1)}%**, ${verdict(Number((overhead * 100).toFixed(1)), 5, true)}`,
      `- CPU time per request (the servers' user + system time over the requests they answered, ` +
        `/proc): metrics on / off **${result.medianCpuRatio.toFixed(3)}** (median of the rounds), ` +
        `${((result.medianCpuRatio - 1) * 100).toFixed(1)}% more CPU per request`,
      `- the metrics moved: \`cloudprice_http_requests_total{route="/instances",status="200"}\` ` +
        `went from ${before.total} to ${after.total} (+${after.total - before.total}; wrk counted ` +
        `${answered} answers in the measured rounds, plus the warm-up) and a scrape is ${after.bytes} B`,
    ].join('\n');
    console.log(summary);
    writeSection(
      'metrics',
      `## Metrics overhead (issues 13, 23: as shipped)

Command: \`npm run bench:metrics\` (bench/metrics-overhead.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Two app processes on one SQLite database with the real catalogue (${records} records): one with
\`METRICS_PORT=0\` (every metric collected, its listener up), one without; \`${CACHED_PATH}\`, a
response-cache hit. Method: ${method()} Here "ratio" is metrics on over metrics off, and the
overhead is 1 minus the median ratio. The CPU columns are each server's CPU time (user + system,
all threads, from /proc/<pid>/stat, 10 ms ticks) during its run over the requests it answered:
less sensitive than requests/s to whatever else loads the machine.

${summary}

${roundsTable(result)}`,
    );
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
