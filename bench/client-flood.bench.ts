// npm run bench:flood — a million distinct client addresses within one rate-limit window
// (one clock minute), against the app on the real catalogue with its default counter bound
// (RATE_LIMIT_MAX_COUNTERS). Measures the RSS growth (peak during the flood and a minute after),
// that the process survives and answers /health, and that the limits of clients that held a
// counter before the flood stay exact: each of their requests sees ratelimit-remaining go down
// by exactly one, and one of them is refused (429) on exactly its 101st request of the window.
// Writes its section of docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEY, availableRecords, fill, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { verdict } from './support/side-by-side.js';
import { WRK_THREADS, requireWrk, runWrk } from './support/wrk.js';

const TARGET_ADDRESSES = 1_000_000;
const PIPELINE = Number(process.env.BENCH_PIPELINE ?? 16);
const CONNECTIONS = 50;
const FLOOD_PATH = '/instances?limit=5';
const LIMIT = 100; // INSTANCES_RATE_LIMIT
const PROBES = 8;

interface Probe {
  readonly client: string;
  sent: number;
  exact: boolean;
  problems: string[];
}

requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-flood-'));
const loadAtStart = uptime();
try {
  await fill(dir, 'snapshots');
  // The default bound: no RATE_LIMIT_MAX_COUNTERS (an empty value is the default).
  const app = startApp(dir, { RATE_LIMIT_MAX_COUNTERS: '' });
  const url = await app.url;
  try {
    const records = await availableRecords(app);
    const ask = async (client: string) => {
      const response = await fetch(`${url}${FLOOD_PATH}`, {
        headers: { 'x-api-key': KEY, [CLIENT_HEADER]: client },
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        remaining: Number(response.headers.get('ratelimit-remaining')),
      };
    };
    /** One more request of a probe client: exactly one fewer remaining, or the 429 at LIMIT. */
    const step = async (probe: Probe) => {
      const { status, remaining } = await ask(probe.client);
      probe.sent += 1;
      const expected = probe.sent <= LIMIT ? 200 : 429;
      const expectedRemaining = Math.max(0, LIMIT - probe.sent);
      if (status !== expected || remaining !== expectedRemaining) {
        probe.exact = false;
        probe.problems.push(
          `request ${probe.sent}: ${status} remaining ${remaining}, expected ${expected} remaining ${expectedRemaining}`,
        );
      }
    };

    // Warm-up in the window before the flood's (its counters expire with that window).
    const warm = await runWrk({
      url: `${url}${FLOOD_PATH}`,
      seconds: 3,
      connections: CONNECTIONS,
      clientHeader: CLIENT_HEADER,
      firstAddress: 200_000_000,
      headers: { 'x-api-key': KEY },
      pipeline: PIPELINE,
    });
    console.log(`warm-up: ${Math.round(warm.requestsPerSecond)} req/s`);
    // Start on a fresh clock minute, so the whole flood falls into one rate-limit window.
    const intoMinute = Date.now() % 60_000;
    await sleep(60_000 - intoMinute + 300);
    const windowStart = new Date();
    const windowEnd = (Math.floor(windowStart.getTime() / 60_000) + 1) * 60_000;
    /** True while a request sent now is counted in the flood's window (a second of margin). */
    const inWindow = () => Date.now() < windowEnd - 1_000;
    const probes: Probe[] = Array.from({ length: PROBES }, (_, i) => ({
      client: `192.0.2.${i + 1}`,
      sent: 0,
      exact: true,
      problems: [],
    }));
    for (const probe of probes) await step(probe); // they hold counters before the flood
    const rssBefore = app.rssMb();
    const loadBefore = uptime();
    let rssPeak = rssBefore;
    let flooding = true;
    const sampler = (async () => {
      while (flooding) {
        if (app.alive()) rssPeak = Math.max(rssPeak, app.rssMb());
        await sleep(250);
      }
    })();
    // Probes 0..PROBES-2 send one request every 2 s; the last one, 20 s in, sends until refused.
    const prober = (async () => {
      const burst = probes[PROBES - 1]!;
      const started = Date.now();
      let burstDone = false;
      while (flooding && inWindow()) {
        for (const probe of probes.slice(0, -1))
          if (probe.sent < LIMIT && inWindow()) await step(probe);
        if (!burstDone && Date.now() - started > 20_000) {
          while (burst.sent <= LIMIT && inWindow()) await step(burst);
          burstDone = burst.sent > LIMIT;
        }
        await sleep(2_000);
      }
      return burstDone;
    })();
    // Until 1.5 s before the window ends: wrk stops its clock before the last answers arrive.
    const floodSeconds = Math.floor((windowEnd - Date.now() - 1_500) / 1000);
    const flood = await runWrk({
      url: `${url}${FLOOD_PATH}`,
      seconds: floodSeconds,
      connections: CONNECTIONS,
      clientHeader: CLIENT_HEADER,
      firstAddress: 0,
      headers: { 'x-api-key': KEY },
      pipeline: PIPELINE,
      countStatus: true,
    });
    const floodEndedAt = Date.now();
    flooding = false;
    const burstDone = await prober;
    await sampler;
    const sameWindow = floodEndedAt < windowEnd;
    const alive = app.alive();
    const rssAfter = alive ? app.rssMb() : NaN;
    const after = alive ? await ask('192.0.2.200').then((r) => r.status) : 0;
    // A minute later: the flood's window has ended and its counters have been swept.
    await sleep(70_000);
    const rssLater = app.alive() ? app.rssMb() : NaN;
    const later = app.alive() ? await ask('192.0.2.201').then((r) => r.status) : 0;
    const loadAfter = uptime();

    const answered = flood.requests;
    const growth = rssPeak - rssBefore;
    const exact = probes.every((p) => p.exact) && burstDone;
    const statuses = Object.entries(flood.statuses)
      .map(([status, count]) => `${status}: ${count.toLocaleString('en-US')}`)
      .join(', ');
    const summary = [
      `- distinct client addresses answered within the window: **${answered.toLocaleString('en-US')}** ` +
        `in ${floodSeconds} s (${Math.round(flood.requestsPerSecond).toLocaleString('en-US')} req/s; statuses ${statuses}; ` +
        `${flood.socketErrors} socket errors), ${verdict(answered, TARGET_ADDRESSES)}; all in one clock minute: ${sameWindow ? 'yes' : 'NO'}`,
      `- RSS growth, peak during the flood minus before it: **${growth.toFixed(1)} MB** ` +
        `(${rssBefore.toFixed(1)} → peak ${rssPeak.toFixed(1)} MB), ${verdict(growth, 64, true)}; ` +
        `${rssAfter.toFixed(1)} MB when it ended, ${rssLater.toFixed(1)} MB 70 s later`,
      `- no crash: process ${alive ? 'alive' : 'DEAD'}; a new client's /instances answered ${after} right after the flood ` +
        `(503 while the window's counters fill the table) and ${later} 70 s later`,
      `- limits exact for clients under the bound: **${exact ? 'yes' : 'NO'}** (${PROBES} clients that held a counter ` +
        `before the flood; ${PROBES - 1} sent one request every 2 s, ${probes
          .slice(0, -1)
          .map((p) => p.sent)
          .join('/')} requests, each seeing ratelimit-remaining exactly one lower; the last sent ` +
        `${burst(probes).sent} requests 20 s in: 100 answered 200 with remaining 99..0, the 101st 429)` +
        (exact ? '' : `; problems: ${probes.flatMap((p) => p.problems.slice(0, 3)).join('; ')}`),
    ].join('\n');
    console.log(summary);
    writeSection(
      'flood',
      `## A million client addresses in one minute (issue 9)

Command: \`npm run bench:flood\` (bench/client-flood.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; when the flood began: ${loadBefore}; at the end: ${loadAfter}.
The app on the real catalogue (${records} records) with its **default** counter bound
(\`RATE_LIMIT_MAX_COUNTERS\` unset). wrk (${WRK_THREADS} threads, ${CONNECTIONS} connections, HTTP/1.1
pipelining ${PIPELINE} deep, so that the requests are not limited by round trips) sends
\`${FLOOD_PATH}\` with a key, each request from a client address never used before, starting
${windowStart.toISOString().slice(11, 19)} UTC, just after a clock minute began (the window is
the clock minute, D8), for ${floodSeconds} s. RSS is VmRSS from /proc every 250 ms, MB = 10^6
bytes. Meanwhile ${PROBES} clients that got a counter before the flood keep sending requests and
check the rate-limit headers of every answer.

${summary}`,
    );
  } finally {
    await app.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function burst(probes: readonly Probe[]): Probe {
  return probes[probes.length - 1]!;
}
