// npm run bench:recommend-large [other tree] — a NEW POST /recommend body at 50,000 records,
// as shipped (bench/support/shipped-server.ts: `npm run build`, `node dist/src/main.js`, `info`
// logging to a file) on a generated catalogue (test/support/generate-catalog.ts). One request at
// a time, so a request's latency is its own and not the queue's: every body is new to the answer
// memo (stack pairs x scales x a budget never sent before), as a person trying requirements
// sends them. Reports client-side p50/p99 and the server's CPU per request (utime + stime from /proc,
// less disturbed by the machine's other load than latency is). With another checkout's path,
// that tree's server answers the same bodies in alternating rounds (before/after in one run).
// BENCH_RECORDS, BENCH_ROUNDS (3) and BENCH_REQUESTS (500 per round) change the run.
// Writes its section of docs/performance.md (not with another tree).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KEY, fill, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { machineLine, uptime, writeSection } from './support/report.js';
import { buildShipped, type ShippedServer } from './support/shipped-server.js';
import { cpuMsOf, median } from './support/side-by-side.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const TARGET_P99_MS = 10;
const other = process.argv[2];

const STACKS = ['nginx', 'php-fpm', 'mysql', 'postgresql', 'redis', 'elasticsearch', 'nodejs'];
const SCALES = ['small', 'medium', 'large'];
let sent = 0;
/** The next body: every one new (its budget never sent before), stacks and scales rotating. */
function nextBody(): string {
  const n = sent++;
  const a = n % STACKS.length;
  const b = (a + 1 + (Math.floor(n / STACKS.length) % (STACKS.length - 1))) % STACKS.length;
  return JSON.stringify({
    stack: [STACKS[a], STACKS[b]],
    scale: SCALES[Math.floor(n / 3) % SCALES.length],
    budget_max: 20 + (n % 480) + n / 1000,
  });
}

interface Round {
  readonly p50: number;
  readonly p99: number;
  readonly cpuMicros: number;
  readonly load: number;
}

/** `count` new bodies one after another: latencies measured by the client, CPU by /proc. */
async function round(app: ShippedServer, count: number): Promise<Round> {
  const url = `${await app.url}/recommend`;
  const latencies: number[] = [];
  const cpuBefore = cpuMsOf(app.pid);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'x-api-key': KEY,
        'content-type': 'application/json',
        [CLIENT_HEADER]: `large-${sent}`,
      },
      body: nextBody(),
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`/recommend answered ${response.status}`);
  }
  const cpuMicros = ((cpuMsOf(app.pid) - cpuBefore) * 1000) / count;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(count - 1, Math.floor(q * count))]!;
  return { p50: at(0.5), p99: at(0.99), cpuMicros, load: Number(uptime().split(',')[0]) };
}

const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-recommend-large-'));
const loadAtStart = uptime();
const otherMain = other === undefined ? undefined : buildShipped(path.resolve(other));
try {
  await fill(dir, `generated:${RECORDS}`);
  const servers: Array<{ name: string; app: ShippedServer }> = [
    { name: 'this tree', app: startApp(dir) },
  ];
  if (otherMain !== undefined) {
    servers.push({
      name: path.basename(path.resolve(other!)),
      app: startApp(dir, {}, [], otherMain),
    });
  }
  try {
    // Warm-up: the code optimised.
    for (const { app } of servers) await round(app, 200);
    const rounds = new Map<string, Round[]>(servers.map((s) => [s.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
        rounds.get(s.name)!.push(await round(s.app, REQUESTS));
      }
    }
    const lines: string[] = [];
    for (const [name, list] of rounds) {
      const p99 = median(list.map((x) => x.p99));
      lines.push(
        `- ${name}: median of the rounds p50 **${median(list.map((x) => x.p50)).toFixed(2)} ms**, ` +
          `p99 **${p99.toFixed(2)} ms** (target ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'missed'} at this load), ` +
          `server CPU **${median(list.map((x) => x.cpuMicros)).toFixed(0)} µs** per request`,
        `  (rounds: ${list.map((x) => `p50 ${x.p50.toFixed(2)} / p99 ${x.p99.toFixed(2)} ms, ${x.cpuMicros.toFixed(0)} µs, load ${x.load}`).join('; ')})`,
      );
    }
    const summary = lines.join('\n');
    console.log(summary);
    if (otherMain === undefined) {
      writeSection(
        'recommend-large',
        `## A new POST /recommend body at ${RECORDS.toLocaleString('en-US')} records (issue 23, as shipped)

Command: \`npm run bench:recommend-large\` (bench/recommend-large.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Catalogue: \`generateCatalogs(${RECORDS}, 42)\` in SQLite, served as \`npm start\` serves it.
One request at a time (a request's own latency, not a queue's), each body new to the answer memo:
two of seven stacks, three scales, a budget never sent before. 200 requests to warm up, then
${ROUNDS} rounds of ${REQUESTS}. Latency measured by the client (keep-alive connection); CPU per
request from the server's utime + stime in /proc over the round.

${summary}`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.app.stop()));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
