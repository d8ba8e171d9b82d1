// The compose stack under real faults, run by .ci/containers.sh after the stack checks:
//   node .ci/fault-check.ts            (Node.js 22.18 or newer strips the types)
// While a bounded load of reads runs through the balancer, it kills one replica with SIGKILL
// (and starts it again), stops PostgreSQL for OUTAGE_MS (then starts it), and stops Redis for
// OUTAGE_MS (then starts it). Asserted (docs/deploy.md, "Proven in CI"):
// - every answer is 2xx, or a documented 503 while a dependency is down: the JSON envelope
//   SERVICE_UNAVAILABLE, or /health's own 503 body (degraded or unhealthy); the window runs
//   from the stop to RECOVERY_MS after the start. No other 5xx (HAProxy's own 502/503/504
//   included), no 4xx (429 included: the load stays under the rate limits), no connection error
//   except answers cut off by the SIGKILL itself (a response in transit dies with its process);
// - recovery: after each start, a read that needs what was restarted answers 2xx through the
//   balancer within RECOVERY_MS, and nothing fails after that;
// - the killed replica answers again through the balancer (within REPLICA_BACK_MS);
// - the catalogue (every id, paged through GET /instances) is the same before and after: no
//   record lost, none duplicated, the same total.
// It prints the count of each status per phase. Everything is bounded: each request
// (REQUEST_TIMEOUT_MS), each container command (COMMAND_TIMEOUT_MS), the load (MAX_REQUESTS)
// and the whole check (DEADLINE_MS).
// Environment: BASE (the balancer's URL, loopback), API_KEY, PODMAN (default `podman`),
// APP1_CONTAINER, POSTGRES_CONTAINER, REDIS_CONTAINER (container ids), REPLICA (the killed
// one's name in X-Cloudprice-Replica, default app1).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const BASE = process.env['BASE'] ?? 'http://127.0.0.1:8080';
const KEY = process.env['API_KEY'] ?? '';
const PODMAN = process.env['PODMAN'] ?? 'podman';
const REPLICA = process.env['REPLICA'] ?? 'app1';
const OUTAGE_MS = Number(process.env['OUTAGE_MS'] ?? 10_000);
const RECOVERY_MS = 5_000;
const REPLICA_BACK_MS = 120_000;
const REQUEST_TIMEOUT_MS = 15_000;
const COMMAND_TIMEOUT_MS = 60_000;
const MAX_REQUESTS = 40_000;
const DEADLINE_MS = 330_000;
const started = Date.now();

function fail(message: string): never {
  console.error(`fault check: FAILED: ${message}`);
  process.exit(1);
}

function say(message: string): void {
  console.log(
    `fault check ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s: ${message}`,
  );
}

const container = (name: string): string =>
  process.env[name] || fail(`${name} is not set (a container id)`);
const app1 = container('APP1_CONTAINER');
const postgres = container('POSTGRES_CONTAINER');
const redis = container('REDIS_CONTAINER');

// The whole check is bounded: a hung step cannot hold CI.
setTimeout(() => fail(`not finished within ${DEADLINE_MS / 1000} s`), DEADLINE_MS).unref();

async function podman(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(PODMAN, args, { timeout: COMMAND_TIMEOUT_MS });
  return stdout.trim();
}

/** What a read needs besides a replica: `db` reads PostgreSQL, `limited` counts in Redis. */
interface Read {
  kind: string;
  path: string;
  method?: 'POST';
  body?: string;
  db: boolean;
  limited: boolean;
}

interface Result {
  kind: string;
  start: number;
  end: number;
  status: number;
  /** The envelope's error code, /health's status, or the connection error. */
  detail: string;
  replica: string | null;
  needsDb: boolean;
  limited: boolean;
}

async function call(read: Read): Promise<Result> {
  const start = Date.now();
  const base = { kind: read.kind, start, needsDb: read.db, limited: read.limited };
  try {
    const res = await fetch(`${BASE}${read.path}`, {
      method: read.method ?? 'GET',
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
      ...(read.body === undefined ? {} : { body: read.body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let detail = '';
    try {
      const body = JSON.parse(text) as { error?: { code?: string }; status?: string };
      detail = body.error?.code ?? body.status ?? '';
    } catch {
      detail = `not JSON: ${text.slice(0, 80).replace(/\s+/g, ' ')}`;
    }
    const replica = res.headers.get('x-cloudprice-replica');
    return { ...base, end: Date.now(), status: res.status, detail, replica };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ...base, end: Date.now(), status: 0, detail: cause ?? String(error), replica: null };
  }
}

async function json<T>(path: string): Promise<T> {
  const result = await fetch(`${BASE}${path}`, {
    headers: { 'X-API-Key': KEY },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (result.status !== 200) fail(`${path} answered ${result.status}: ${await result.text()}`);
  return (await result.json()) as T;
}

/** Every id of the catalogue, paged through GET /instances (100 a page, tie-broken by id). */
async function catalogueIds(): Promise<{ ids: number[]; total: number }> {
  interface Page {
    data: { instances: { id: number }[]; pagination: { total: number } };
  }
  const ids: number[] = [];
  let total = -1;
  for (let offset = 0; total < 0 || offset < total; offset += 100) {
    if (offset > 20_000) fail('more than 20,000 records: not the bundled snapshots');
    const page = await json<Page>(`/instances?limit=100&offset=${offset}`);
    total = page.data.pagination.total;
    ids.push(...page.data.instances.map((i) => i.id));
    if (page.data.instances.length === 0) break;
  }
  return { ids, total };
}

// --- the load -------------------------------------------------------------------------------
// The /instances budget (100 a minute per client address, shared by /instances, history and
// /changes) and /recommend's (60) are counted across the replicas, and every request here comes
// from one address: the paced reads stay at 48 and 24 a minute, leaving room for the id lists.
// /health and /openapi.json have no limit: three loops keep requests in flight all the time.
const results: Result[] = [];
let running = true;

async function loop(next: (i: number) => Read, pauseMs: number): Promise<void> {
  for (let i = 0; running && results.length < MAX_REQUESTS; i += 1) {
    const begin = Date.now();
    results.push(await call(next(i)));
    await sleep(Math.max(0, pauseMs - (Date.now() - begin)));
  }
}

const RECOMMEND = JSON.stringify({ stack: ['nginx', 'postgresql'], scale: 'small' });

function startLoad(ids: number[]): Promise<void>[] {
  const pick = (i: number) => ids[(i * 7919) % ids.length] ?? 1;
  const catalogue = (i: number): Read => {
    switch (i % 3) {
      case 0:
        return {
          kind: 'instances',
          path: `/instances?limit=20&offset=${(i * 37) % 500}`,
          db: false,
          limited: true,
        };
      case 1:
        return { kind: 'history', path: `/instances/${pick(i)}/history`, db: true, limited: true };
      default:
        return {
          kind: 'changes',
          path: '/changes?since=2000-01-01&limit=50',
          db: true,
          limited: true,
        };
    }
  };
  const unlimited = (i: number): Read =>
    i % 2 === 0
      ? { kind: 'health', path: '/health', db: true, limited: false }
      : { kind: 'openapi', path: '/openapi.json', db: false, limited: false };
  return [
    loop(catalogue, 1250),
    loop(
      () => ({
        kind: 'recommend',
        path: '/recommend',
        method: 'POST',
        body: RECOMMEND,
        db: false,
        limited: true,
      }),
      2500,
    ),
    ...Array.from({ length: 3 }, () => loop(unlimited, 25)),
  ];
}

// --- the faults -----------------------------------------------------------------------------
interface Phase {
  name: string;
  from: number;
  to: number;
  /** A dependency's outage: from its stop to its start (503s are documented in between). */
  down?: { dependency: 'postgres' | 'redis'; stopped: number; restarted: number };
  /** The SIGKILL and the start of the killed replica. */
  killed?: { at: number; restarted: number; back: number };
}
const phases: Phase[] = [];

async function phase(name: string, body: (p: Phase) => Promise<void>): Promise<void> {
  const p: Phase = { name, from: Date.now(), to: 0 };
  phases.push(p);
  say(`${name}: begins`);
  await body(p);
  p.to = Date.now();
}

/** Waits until `test` holds for an answer ended after `since`; returns when it did. */
async function waitFor(
  test: (r: Result) => boolean,
  since: number,
  ms: number,
): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const hit = results.find((r) => r.end >= since && test(r));
    if (hit) return hit.end;
    if (Date.now() > deadline) return undefined;
    await sleep(100);
  }
}

async function outage(p: Phase, dependency: 'postgres' | 'redis', id: string): Promise<void> {
  const stopped = Date.now();
  await podman('stop', '-t', '20', id);
  say(`${dependency} stopped (${Date.now() - stopped} ms); down for ${OUTAGE_MS / 1000} s`);
  await sleep(Math.max(0, stopped + OUTAGE_MS - Date.now()));
  await podman('start', id);
  const started = Date.now();
  // Recovery counts from the moment it answers its own client again (PostgreSQL replays its
  // shutdown checkpoint first, seconds on a busy host): what the app does from then on.
  const probe =
    dependency === 'postgres'
      ? ['exec', id, 'pg_isready', '-q', '-U', 'cloudprice', '-d', 'cloudprice']
      : ['exec', id, 'redis-cli', 'ping'];
  for (;;) {
    if (
      await podman(...probe).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() - started > 30_000)
      fail(`${dependency} did not answer within 30 s of its start`);
    await sleep(100);
  }
  const restarted = Date.now();
  p.down = { dependency, stopped, restarted };
  say(`${dependency} started, answering ${restarted - started} ms later`);
  // The reads that need it, and have nothing else failing: /health needs both dependencies.
  const needs = (r: Result) =>
    dependency === 'postgres' ? r.needsDb : r.limited || r.kind === 'health';
  await waitFor(
    (r) => r.start >= restarted && needs(r) && r.status >= 200 && r.status < 300,
    restarted,
    30_000,
  );
  await sleep(RECOVERY_MS + 1500);
}

async function kill(p: Phase): Promise<void> {
  const at = Date.now();
  await podman('kill', '-s', 'KILL', app1);
  say(`${REPLICA} killed with SIGKILL`);
  // Let the balancer meet the dead replica before it comes back.
  await sleep(2000);
  const state = await podman('inspect', '--format', '{{.State.Status}}', app1);
  if (state === 'running') say(`${REPLICA} was already restarted by its restart policy`);
  await podman('start', app1);
  const restarted = Date.now();
  say(`${REPLICA} started`);
  const back = await waitFor(
    (r) => r.replica === REPLICA && r.status >= 200 && r.status < 300,
    restarted,
    REPLICA_BACK_MS,
  );
  if (back === undefined)
    fail(
      `${REPLICA} did not answer through the balancer within ${REPLICA_BACK_MS / 1000} s of its start`,
    );
  p.killed = { at, restarted, back };
  say(`${REPLICA} answers again, ${((back - restarted) / 1000).toFixed(1)} s after its start`);
  await sleep(3000);
}

// --- the run ----------------------------------------------------------------------------------
const before = await catalogueIds();
say(`before: ${before.total} records, ${before.ids.length} ids listed`);
const load = startLoad(before.ids);
await phase('baseline', () => sleep(4000));
await phase(`kill -9 ${REPLICA}`, kill);
await phase('postgres down', (p) => outage(p, 'postgres', postgres));
await phase('redis down', (p) => outage(p, 'redis', redis));
await phase('after', () => sleep(3000));
running = false;
await Promise.all(load);
const after = await catalogueIds();
if (process.env['RESULTS_FILE']) {
  writeFileSync(process.env['RESULTS_FILE'], JSON.stringify({ started, phases, results }));
}

// --- the verdict ------------------------------------------------------------------------------
const problems: string[] = [];
const phaseOf = (r: Result) =>
  phases.find((p) => r.start >= p.from && r.start < (p.to || Infinity)) ??
  phases[phases.length - 1]!;

/** Whether an answer is acceptable, and if not, why. */
function verdict(r: Result): string | undefined {
  if (r.status >= 200 && r.status < 300) return undefined;
  const p = phaseOf(r);
  if (r.status === 503 && p.down !== undefined && r.start <= p.down.restarted + RECOVERY_MS) {
    const documented = r.kind === 'health' ? ['degraded', 'unhealthy'] : ['SERVICE_UNAVAILABLE'];
    if (documented.includes(r.detail)) return undefined;
  }
  // A SIGKILL cuts off what the replica was sending at that moment; nothing can answer those.
  if (r.status === 0 && p.killed !== undefined && r.start <= p.killed.at && r.end >= p.killed.at) {
    return undefined;
  }
  return `${r.kind} ${r.status} ${r.detail} at ${((r.start - started) / 1000).toFixed(1)} s (${p.name})`;
}

for (const r of results) {
  const why = verdict(r);
  if (why !== undefined) problems.push(why);
}

console.log('\nfault check: answers per phase (status x count; 0 = connection error)');
for (const p of phases) {
  const mine = results.filter((r) => phaseOf(r) === p);
  const counts = new Map<string, number>();
  for (const r of mine) {
    const key = r.status === 200 ? '200' : `${r.status} ${r.detail}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const text = [...counts]
    .sort()
    .map(([k, n]) => `${k} x${n}`)
    .join(', ');
  console.log(`  ${p.name.padEnd(14)} ${String(mine.length).padStart(5)} requests: ${text}`);
}

for (const p of phases) {
  if (p.down !== undefined) {
    const { dependency, restarted } = p.down;
    const needs = (r: Result) =>
      dependency === 'postgres' ? r.needsDb : r.limited || r.kind === 'health';
    const later = results.filter((r) => r.start >= restarted && r.start < p.to && needs(r));
    const firstOk = later.find((r) => r.status >= 200 && r.status < 300);
    const lastBad = later.filter((r) => r.status < 200 || r.status >= 300).at(-1);
    const recovered = firstOk === undefined ? Infinity : firstOk.end - restarted;
    const settled = lastBad === undefined ? 0 : lastBad.end - restarted;
    console.log(
      `  ${dependency}: first 2xx of a read needing it ${recovered} ms after it answered again; ` +
        `last failure ${lastBad === undefined ? 'none after that' : `${settled} ms after it`}`,
    );
    if (recovered > RECOVERY_MS)
      problems.push(
        `${dependency}: no read needing it answered 2xx within ${RECOVERY_MS} ms of it answering again`,
      );
    if (settled > RECOVERY_MS)
      problems.push(`${dependency}: reads still failed ${settled} ms after it answered again`);
  }
  if (p.killed !== undefined) {
    const firstOk = results.find(
      (r) => r.start >= p.killed!.restarted && r.status >= 200 && r.status < 300,
    );
    const cut = results.filter((r) => r.status === 0 && phaseOf(r) === p).length;
    console.log(
      `  ${REPLICA}: first 2xx through the balancer ${firstOk === undefined ? 'never' : `${firstOk.end - p.killed.restarted} ms`} after its start; ` +
        `${REPLICA} itself answers again ${p.killed.back - p.killed.restarted} ms after its start; ${cut} answers cut off by the SIGKILL`,
    );
    if (firstOk === undefined || firstOk.end - p.killed.restarted > RECOVERY_MS)
      problems.push(`no 2xx within ${RECOVERY_MS} ms of ${REPLICA}'s start`);
  }
}

const duplicates = after.ids.length - new Set(after.ids).size;
const gone = before.ids.filter((id) => !after.ids.includes(id));
const added = after.ids.filter((id) => !before.ids.includes(id));
console.log(
  `  catalogue: ${before.total} records before, ${after.total} after; ` +
    `${gone.length} lost, ${added.length} new, ${duplicates} duplicated ids (${after.ids.length} listed)`,
);
if (before.ids.length !== before.total || new Set(before.ids).size !== before.total) {
  problems.push(
    `before the faults the listing had ${before.ids.length} ids for a total of ${before.total}`,
  );
}
if (after.total !== before.total || after.ids.length !== after.total)
  problems.push(
    `the total went from ${before.total} to ${after.total} (${after.ids.length} listed)`,
  );
if (gone.length > 0) problems.push(`records lost: ${gone.slice(0, 10).join(', ')}`);
if (added.length > 0) problems.push(`records new: ${added.slice(0, 10).join(', ')}`);
if (duplicates > 0) problems.push(`${duplicates} ids listed twice`);
if (results.length >= MAX_REQUESTS)
  problems.push(`the load reached its bound of ${MAX_REQUESTS} requests`);

if (problems.length > 0) {
  fail(`${problems.length} problems:\n  ${problems.slice(0, 30).join('\n  ')}`);
}
say(
  `${results.length} requests, every answer 2xx or a documented 503; recovery within ${RECOVERY_MS / 1000} s; no record lost or duplicated`,
);
