// Checks of the compose stack (compose.yaml) through its balancer, run by .ci/containers.sh:
//   node .ci/stack-check.ts <step> <state.json>   (Node.js 22.18 or newer strips the types)
// Steps: `ready` waits for /health; `fill` checks that a sync filled the catalogue, creates a
// webhook and writes what must survive a restart into the state file; `limits` checks that
// /instances is counted across the replicas (the 101st in one clock minute gets 429, both
// replicas having answered); `sigterm` stops one replica with SIGTERM under load and checks that
// no request failed and the other kept answering; `persisted` checks, after `down` and `up`,
// that the catalogue, its history and the webhook are still there.
// Environment: BASE (the balancer's URL), API_KEY, STOP_COMMAND (stops a replica with SIGTERM
// and returns when it has exited, e.g. `podman stop -t 30 <container>`), REPLICA (its name in
// the balancer's X-Cloudprice-Replica header).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const [step, stateFile] = process.argv.slice(2);
const BASE = process.env['BASE'] ?? 'http://127.0.0.1:8080';
const KEY = process.env['API_KEY'] ?? '';

function fail(message: string): never {
  console.error(`stack check ${step}: FAILED: ${message}`);
  process.exit(1);
}

function ok(message: string): void {
  console.log(`stack check ${step}: ${message}`);
}

/** The parts of the API's bodies these checks read (docs/api.md). */
interface Body {
  success?: boolean;
  data?: {
    success?: boolean;
    instances?: { id: number }[];
    pagination?: { total: number };
    history?: unknown[];
    changes?: unknown[];
    next_cursor?: string | null;
    webhooks?: { id: string }[];
  };
  summary?: { total_instances: number };
}

interface Answer {
  status: number;
  body: Body;
  text: string;
  replica: string | null;
}

interface State {
  total: number;
  instance: number;
  periods: number;
  changes: number;
  webhooks: string[];
}

async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${BASE}${path}`, {
    ...init,
    headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    // Not JSON: `text` says what it was.
  }
  return { status: res.status, body, text, replica: res.headers.get('x-cloudprice-replica') };
}

/** What must survive `down` and `up`. */
async function snapshot(): Promise<State> {
  const instances = await call('/instances?limit=1');
  if (instances.status !== 200) fail(`/instances answered ${instances.status}`);
  const first = instances.body.data?.instances?.[0];
  if (first === undefined) fail('/instances returned no record');
  const history = await call(`/instances/${first.id}/history`);
  if (history.status !== 200) fail(`/instances/${first.id}/history answered ${history.status}`);
  let changes = 0;
  let cursor = '';
  for (let page = 0; page < 50; page += 1) {
    const feed = await call(`/changes?since=2000-01-01&limit=500${cursor}`);
    if (feed.status !== 200) fail(`/changes answered ${feed.status}: ${feed.text}`);
    changes += feed.body.data?.changes?.length ?? 0;
    const next = feed.body.data?.next_cursor;
    if (!next) break;
    cursor = `&cursor=${encodeURIComponent(next)}`;
  }
  const hooks = await call('/webhooks');
  if (hooks.status !== 200) fail(`/webhooks answered ${hooks.status}`);
  return {
    total: instances.body.data?.pagination?.total ?? 0,
    instance: first.id,
    periods: history.body.data?.history?.length ?? 0,
    changes,
    webhooks: (hooks.body.data?.webhooks ?? []).map((w) => w.id),
  };
}

if (step === 'ready') {
  // Up, as the balancer sees it: 200, or 503 from a degraded replica (a provider's sync failed
  // under load, say); the `fill` step's sync then has to make it 200.
  const deadline = Date.now() + 240_000;
  let last = 'no answer';
  for (;;) {
    const answers = new Map<string | null, string>();
    for (let i = 0; i < 4; i += 1) {
      const answer = await call('/health').catch(() => undefined);
      if (answer === undefined) continue;
      last = `${answer.status} from ${answer.replica}: ${answer.text.slice(0, 1500)}`;
      const up =
        answer.status === 200 || (answer.status === 503 && !answer.text.includes('shutting_down'));
      if (up && answer.replica !== null) answers.set(answer.replica, `${answer.status}`);
    }
    if (answers.size === 2) {
      const seen = [...answers].map(([replica, status]) => `${replica} ${status}`).sort();
      ok(`both replicas answer /health through the balancer: ${seen.join(', ')}`);
      if ([...answers.values()].includes('503')) console.log(`  a 503 said: ${last}`);
      break;
    }
    if (Date.now() > deadline)
      fail(`/health did not answer from both replicas in 240 s; last: ${last}`);
    await sleep(1000);
  }
} else if (step === 'fill') {
  const sync = await call('/sync', {
    method: 'POST',
    body: JSON.stringify({ providers: ['provider_a', 'provider_b', 'provider_c'] }),
  });
  if (sync.status !== 200 || sync.body.data?.success !== true) {
    fail(`POST /sync answered ${sync.status}: ${sync.text.slice(0, 500)}`);
  }
  const health = await call('/health');
  const total = health.body.summary?.total_instances ?? 0;
  if (health.status !== 200 || total < 1000) {
    fail(`after the sync /health says ${health.status}, ${total} instances: ${health.text}`);
  }
  const hook = await call('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      url: 'https://93.184.215.14/cloudprice-ci',
      events: ['sync.completed'],
    }),
  });
  if (hook.status !== 201) fail(`POST /webhooks answered ${hook.status}: ${hook.text}`);
  const state = await snapshot();
  if (state.changes < 1 || state.periods < 1) fail(`no history: ${JSON.stringify(state)}`);
  writeFileSync(stateFile ?? fail('no state file'), JSON.stringify(state));
  ok(`sync succeeded, ${total} instances, state ${JSON.stringify(state)}`);
} else if (step === 'limits') {
  // Windows are clock minutes (D8): start right after a minute begins, so all 101 fall in one.
  await sleep(60_000 - (Date.now() % 60_000) + 200);
  const minute = Math.floor(Date.now() / 60_000);
  const statuses: number[] = [];
  const replicas = new Set();
  for (let i = 0; i < 101; i += 1) {
    const answer = await call(`/instances?limit=1&offset=${i}`);
    statuses.push(answer.status);
    if (answer.status === 200) replicas.add(answer.replica);
  }
  const served = statuses.filter((s) => s === 200).length;
  if (Math.floor(Date.now() / 60_000) !== minute) {
    fail('the 101 requests took more than a minute, so they span two windows');
  }
  if (served !== 100 || statuses[100] !== 429) {
    fail(`expected 100 answers then 429, got ${served} x 200 and a last ${statuses[100]}`);
  }
  if (replicas.size !== 2) fail(`only ${[...replicas].join()} answered: not balanced`);
  ok(`100 x 200 from ${[...replicas].sort().join(' and ')}, then 429 for the 101st`);
} else if (step === 'sigterm') {
  const stopCommand = (process.env['STOP_COMMAND'] ?? '').split(' ');
  const stopped = process.env['REPLICA'] ?? 'app1';
  const results: {
    start: number;
    end: number;
    status: number;
    replica: string | null;
    error?: string;
  }[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const start = Date.now();
      try {
        const res = await fetch(`${BASE}/openapi.json`, {
          headers: { 'X-API-Key': KEY },
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        const replica = res.headers.get('x-cloudprice-replica');
        results.push({ start, end: Date.now(), status: res.status, replica });
      } catch (error) {
        results.push({ start, end: Date.now(), status: 0, replica: null, error: String(error) });
      }
    }
  };
  const clients = Array.from({ length: 8 }, client);
  await sleep(2000);
  const signalled = Date.now();
  const stop = await promisify(execFile)(stopCommand[0] ?? 'false', stopCommand.slice(1)).then(
    () => undefined,
    (error: Error) => error,
  );
  const exited = Date.now();
  await sleep(5000);
  running = false;
  await Promise.all(clients);
  if (stop) fail(`stopping ${stopped} failed: ${stop.message}`);
  const failed = results.filter((r) => r.status !== 200);
  const afterSignal = results.filter((r) => r.start >= signalled);
  const drainedAnswers = afterSignal.filter((r) => r.replica === stopped).length;
  const slowest = Math.max(...afterSignal.map((r) => r.end - r.start));
  const afterExit = results.filter((r) => r.start >= exited);
  const byOther = afterExit.filter((r) => r.status === 200 && r.replica !== stopped).length;
  const summary =
    `${results.length} requests, ${afterSignal.length} after SIGTERM (${drainedAnswers} answered ` +
    `by ${stopped} while it drained), ${stopped} exited ${((exited - signalled) / 1000).toFixed(1)} s ` +
    `after the signal, slowest answer after the signal ${slowest} ms, ${byOther} answered by the other after the exit`;
  if (failed.length > 0) {
    fail(`${failed.length} requests failed (${JSON.stringify(failed.slice(0, 3))}); ${summary}`);
  }
  if (drainedAnswers === 0)
    fail(`the balancer sent ${stopped} nothing after the signal; ${summary}`);
  if (slowest >= 5000) fail(`a request waited ${slowest} ms; ${summary}`);
  if (byOther === 0) fail(`nothing answered after ${stopped} exited; ${summary}`);
  ok(summary);
} else if (step === 'persisted') {
  const before = JSON.parse(readFileSync(stateFile ?? fail('no state file'), 'utf8')) as State;
  const after = await snapshot();
  for (const field of ['total', 'instance', 'periods', 'changes'] as const) {
    if (after[field] !== before[field]) {
      fail(`${field} was ${before[field]} before down/up, is ${after[field]}`);
    }
  }
  const lost = before.webhooks.filter((id) => !after.webhooks.includes(id));
  if (lost.length > 0) fail(`webhooks ${JSON.stringify(lost)} are gone after down/up`);
  ok(`after down and up: ${JSON.stringify(after)}`);
} else {
  fail(`unknown step "${step}"`);
}
