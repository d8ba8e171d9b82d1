// npm run bench:world [-- <records>] — a world-size catalogue (issue 33 item 6): 100,000
// generated records (test/support/generate-catalog.ts), each priced under all six purchase
// options (D61) and with spot advice, in a fresh SQLite database, served as `npm start` serves
// it (bench/support/shipped-server.ts: default configuration, `info` logging to a file).
// Measures, against the issue's targets: the index build (the server's own "catalogue index
// built" line), RSS over the same server on an empty catalogue (with the on-demand index only,
// and once every option's index is built), new filters with purchase_option=reserved_1y and
// new /recommend bodies naming a purchase option, one request at a time (a request's own
// latency, not a queue's), with the server's CPU per request from /proc. Reported beside them,
// without targets: the fill, and each option's first request (which builds that option's
// index, CatalogIndex.forOption). <records> (default 100000) for quick checks; only the full
// size writes its section of docs/performance.md. BENCH_ROUNDS (3) and BENCH_REQUESTS (500 per
// round) change the measured runs; BENCH_ACCEPT_ENCODING (identity) what the requests accept.
// The method is described in docs/performance.md ("A world-size catalogue").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OTHER_PURCHASE_OPTIONS, PURCHASE_OPTIONS } from '../src/catalog/purchase-options.js';
import { availableRecords, fill, startApp } from './support/app-bench.js';
import { emptyServerRss, indexBuildMs, settledRss } from './support/catalogue-memory.js';
import {
  ACCEPT_ENCODING,
  oneAtATime,
  send,
  type BenchRequest,
  type Timed,
} from './support/one-at-a-time.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { cpuMsOf, median } from './support/side-by-side.js';

const FULL_SIZE = 100_000;
const RECORDS = Number(process.argv[2] ?? FULL_SIZE);
if (!Number.isSafeInteger(RECORDS) || RECORDS < 1) {
  console.error('usage: npm run bench:world [-- <records>]');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const WARMUP = 200;
const TARGETS = { buildMs: 1_500, rssMb: 300, filterP99Ms: 25, recommendP99Ms: 25 } as const;

/** The generated catalogue's providers (the fill installs them; this process does not). */
const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'];

/** A max_price never sent before for request n < 10^6 (so every request misses every cache). */
const newPrice = (n: number): string => (20 + (n % 480) + (n + 1) / 1e6).toFixed(6);

/** The n-th new filter of `option`: four shapes a person narrowing a list sends, rotating. */
function newFilter(option: string, n: number): BenchRequest {
  const shapes = [
    'sort_by=price&order=desc',
    `sort_by=price&min_vcpu=${[2, 4, 8, 16][n % 4]}`,
    `sort_by=vcpu&order=desc&provider=${PROVIDERS[n % PROVIDERS.length]}`,
    `sort_by=memory_gb&min_memory_gb=${[4, 8, 16, 32][n % 4]}`,
  ];
  return {
    path: `/instances?limit=50&${shapes[n % shapes.length]}&purchase_option=${option}&max_price=${newPrice(n)}`,
  };
}

const STACKS = ['nginx', 'php-fpm', 'mysql', 'postgresql', 'redis', 'elasticsearch', 'nodejs'];
const SCALES = ['small', 'medium', 'large'];

/** The n-th new /recommend body: two stacks, a scale, a new budget, the options in turn. */
function newRecommendBody(n: number): BenchRequest {
  const a = n % STACKS.length;
  const b = (a + 1 + (Math.floor(n / STACKS.length) % (STACKS.length - 1))) % STACKS.length;
  return {
    path: '/recommend',
    body: JSON.stringify({
      stack: [STACKS[a], STACKS[b]],
      scale: SCALES[Math.floor(n / 3) % SCALES.length],
      budget_max: Number(newPrice(n)),
      purchase_option: PURCHASE_OPTIONS[n % PURCHASE_OPTIONS.length],
    }),
  };
}

/** Warm-up, then ROUNDS runs of REQUESTS; numbering goes on across runs (every one new). */
async function measured(
  app: ReturnType<typeof startApp>,
  next: (n: number) => BenchRequest,
): Promise<Timed[]> {
  let sent = 0;
  const run = (count: number) => oneAtATime(app, count, () => next(sent++));
  await run(WARMUP);
  const rounds: Timed[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await run(REQUESTS));
  return rounds;
}

/** The first request of `option`: it builds that option's index; client time, server CPU. */
async function firstRequest(
  app: ReturnType<typeof startApp>,
  option: string,
): Promise<{ ms: number; cpuMs: number }> {
  const cpuBefore = cpuMsOf(app.pid);
  const ms = await send(app, newFilter(option, 999_999));
  return { ms, cpuMs: cpuMsOf(app.pid) - cpuBefore };
}

const verdict = (value: number, target: number) => (value <= target ? 'PASS' : 'MISS');
const mb = (value: number) => value.toFixed(1);

const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-world-'));
const loadAtStart = uptime();
try {
  const fillStarted = performance.now();
  await fill(dir, `generated-options:${RECORDS}`);
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  const emptyRss = await emptyServerRss();
  const app = startApp(dir);
  try {
    const records = await availableRecords(app);
    const buildMs = indexBuildMs(app);
    const onDemandRss = await settledRss(app, 'world');
    const firstReserved = await firstRequest(app, 'reserved_1y');
    const firstOthers = new Map<string, { ms: number; cpuMs: number }>();
    for (const option of OTHER_PURCHASE_OPTIONS.filter((o) => o !== 'reserved_1y')) {
      firstOthers.set(option, await firstRequest(app, option));
    }
    const allOptionsRss = await settledRss(app, 'world-options');
    const filters = await measured(app, (n) => newFilter('reserved_1y', n));
    const recommends = await measured(app, newRecommendBody);
    const endRss = app.rssMb();

    const summary = (rounds: Timed[]) => ({
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      cpu: median(rounds.map((r) => r.cpuMicros)),
    });
    const filter = summary(filters);
    const recommend = summary(recommends);
    const roundsOf = (rounds: Timed[]) =>
      rounds
        .map(
          (r) =>
            `p50 ${r.p50.toFixed(2)} / p99 ${r.p99.toFixed(2)} / max ${r.max.toFixed(1)} ms, ${r.cpuMicros.toFixed(0)} µs, load ${r.load.toFixed(2)}`,
        )
        .join('; ');
    const table = [
      '| what | target | measured | verdict |',
      '| --- | --- | --- | --- |',
      `| index build (\`build_ms\` of the server's "catalogue index built" line: on-demand, ${records.toLocaleString('en-US')} records) | ≤ ${TARGETS.buildMs} ms | ${buildMs === undefined ? 'not logged' : `**${buildMs} ms**`} | ${buildMs === undefined ? 'MISS' : verdict(buildMs, TARGETS.buildMs)} |`,
      `| RSS over the empty server, on-demand index only | ≤ +${TARGETS.rssMb} MB | **+${mb(onDemandRss - emptyRss)} MB** (${mb(onDemandRss)} vs ${mb(emptyRss)} MB) | ${verdict(onDemandRss - emptyRss, TARGETS.rssMb)} |`,
      `| RSS over the empty server, all six options' indexes built | ≤ +${TARGETS.rssMb} MB | **+${mb(allOptionsRss - emptyRss)} MB** (${mb(allOptionsRss)} vs ${mb(emptyRss)} MB) | ${verdict(allOptionsRss - emptyRss, TARGETS.rssMb)} |`,
      `| a new filter with \`purchase_option=reserved_1y\`, p99 (median of ${ROUNDS} rounds of ${REQUESTS}) | ≤ ${TARGETS.filterP99Ms} ms | **p99 ${filter.p99.toFixed(2)} ms**, p50 ${filter.p50.toFixed(2)} ms, ${filter.cpu.toFixed(0)} µs CPU per request | ${verdict(filter.p99, TARGETS.filterP99Ms)} |`,
      `| a new \`/recommend\` body with \`purchase_option\`, p99 (the same) | ≤ ${TARGETS.recommendP99Ms} ms | **p99 ${recommend.p99.toFixed(2)} ms**, p50 ${recommend.p50.toFixed(2)} ms, ${recommend.cpu.toFixed(0)} µs CPU per request | ${verdict(recommend.p99, TARGETS.recommendP99Ms)} |`,
      `| the fill (a separate process, through the store) | | ${fillSeconds.toFixed(1)} s | |`,
      `| the first \`purchase_option=reserved_1y\` request (builds its index) | | ${firstReserved.ms.toFixed(0)} ms, ${firstReserved.cpuMs} ms CPU | |`,
      `| the first request of each other option (each builds its index) | | ${[...firstOthers].map(([o, f]) => `${o} ${f.ms.toFixed(0)} ms`).join(', ')} | |`,
      `| RSS at the end (after the measured requests) | | ${mb(endRss)} MB (+${mb(endRss - emptyRss)} MB) | |`,
    ].join('\n');
    const rounds = [
      `- new filters, rounds: ${roundsOf(filters)}`,
      `- new /recommend bodies, rounds: ${roundsOf(recommends)}`,
    ].join('\n');
    console.log(`\n${table}\n\n${rounds}`);
    if (RECORDS === FULL_SIZE) {
      writeSection(
        'world',
        `### Measured ${machineLine()}

Command: \`npm run bench:world\` (bench/world.ts, ${RECORDS.toLocaleString('en-US')} records,
${ROUNDS} rounds of ${REQUESTS}, \`accept-encoding: ${ACCEPT_ENCODING}\`). Load average
(\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.

${table}

${rounds}`,
      );
    }
  } finally {
    await app.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
