// D42 under SIGKILL: the real server (a child process) commits a sync, which queues its webhook
// event in the same transaction, and is killed before the event is delivered: once before any
// attempt, once while the target holds the attempt open. A restart on the same database
// delivers the event, signed, with the same webhook-id. The CLI then lists the subscription and
// the delivery. And under SIGTERM with an attempt held open: the process exits within
// SHUTDOWN_GRACE + 1 s, leaving the delivery queued for the next one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWebhook } from '../../src/events/webhook-service.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { killAllServers, spawnServer } from '../sync/server-process.js';
import { eventually } from '../support/wait.js';
import { fixtureSources } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = 'webhook-kill-key-0123456789abcdef';
const dirs: string[] = [];
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await killAllServers();
  await receiver?.close();
  receiver = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory whose database holds one subscription to provider_a's sync.completed. */
async function prepare(): Promise<{ dataDir: string; database: string; hook: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-webhook-kill-'));
  dirs.push(dataDir);
  const database = path.join(dataDir, 'cloudprice.db');
  receiver = await startWebhookReceiver();
  const store = await createCatalogStore(database);
  try {
    await store.migrate();
    const created = await createWebhook(
      store.webhooks,
      {
        url: new URL(receiver.url),
        events: ['sync.completed'],
        filter: { provider: 'provider_a' },
      },
      { allowPrivate: true, timeoutMs: 1_000 },
    );
    if (!created.ok) throw new Error(created.problem.message);
    receiver.secret = created.webhook.secret;
    return { dataDir, database, hook: created.webhook.id };
  } finally {
    await store.close();
  }
}

function serverEnv(dataDir: string, extra: Record<string, string>): Record<string, string> {
  return {
    API_KEYS: API_KEY,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
    SYNC_INTERVAL: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT: '1s',
    WEBHOOK_POLL_INTERVAL: '100ms',
    ...fixtureSources(),
    ...extra,
  };
}

async function deliveryRows(database: string) {
  const store = await createCatalogStore(database);
  try {
    return await store.webhooks.deliveries({ limit: 10 });
  } finally {
    await store.close();
  }
}

function cli(args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: process.env['HOME'] ?? '/tmp',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`)),
    );
  });
}

describe('webhook events survive SIGKILL and SIGTERM', { timeout: 180_000 }, () => {
  it('delivers after a restart an event committed but never attempted', async () => {
    const { dataDir, database, hook } = await prepare();
    // The first process fills the empty catalogue at start, but polls the queue only hourly
    // (the start-up sync queues before the loop runs): the event is committed, not attempted.
    const first = spawnServer(serverEnv(dataDir, { WEBHOOK_POLL_INTERVAL: '1h' }));
    await first.listening();
    const queued = await deliveryRows(database);
    expect(queued.map((d) => [d.webhookId, d.eventType, d.status, d.attempts])).toEqual([
      [hook, 'sync.completed', 'pending', 0],
    ]);
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(receiver!.received).toEqual([]);

    const second = spawnServer(serverEnv(dataDir, {}));
    await second.listening();
    await receiver!.waitFor(1);
    const [delivered] = receiver!.received;
    expect(delivered!.verified).toBe(true);
    expect(delivered!.id).toBe(queued[0]!.messageId);
    expect(delivered!.event.type).toBe('sync.completed');
    expect(delivered!.event.data['provider']).toBe('provider_a');
    const rows = await eventually(async () => {
      const now = await deliveryRows(database);
      if (now[0]?.status !== 'delivered') throw new Error('not recorded yet');
      return now;
    }, 10_000);
    expect(rows.map((d) => [d.status, d.attempts, d.lastStatus])).toEqual([['delivered', 1, 200]]);
    await second.stop('SIGTERM');

    // The CLI shows the subscription (no secret) and the delivery.
    const env = serverEnv(dataDir, {});
    const hooks = JSON.parse(await cli(['webhooks', 'list', '--json'], env)) as unknown[];
    expect(hooks).toEqual([
      {
        id: hook,
        url: receiver!.url,
        events: ['sync.completed'],
        filter: { provider: 'provider_a' },
        created_at: expect.any(String) as unknown,
      },
    ]);
    const table = await cli(['webhooks', 'deliveries'], env);
    expect(table.split('\n')[0]).toMatch(/^CREATED\s+WEBHOOK\s+EVENT\s+STATUS\s+ATTEMPTS/);
    expect(table).toContain(`${hook}  sync.completed  delivered  1`);
  });

  it('delivers again after a restart an event whose attempt the killed process held open', async () => {
    const { dataDir, database } = await prepare();
    // The target holds the first attempt open; the process is killed while it waits.
    receiver!.script(['hang']);
    const first = spawnServer(serverEnv(dataDir, {}));
    await first.listening();
    await receiver!.waitFor(1);
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
    const [held] = await deliveryRows(database);
    expect([held!.status, held!.attempts]).toEqual(['pending', 0]);

    // The new process takes the delivery over once the dead one's lease (3 x 1 s) lapses.
    const second = spawnServer(serverEnv(dataDir, {}));
    await second.listening();
    await receiver!.waitFor(2);
    const [attempted, delivered] = receiver!.received;
    expect(delivered!.id).toBe(attempted!.id);
    expect(delivered!.body).toBe(attempted!.body);
    expect([attempted!.answered, delivered!.answered]).toEqual([null, 200]);
    expect(delivered!.verified).toBe(true);
    const rows = await eventually(async () => {
      const now = await deliveryRows(database);
      if (now[0]?.status !== 'delivered') throw new Error('not recorded yet');
      return now;
    }, 10_000);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual([['delivered', 1]]);
  });

  it('exits within SHUTDOWN_GRACE + 1 s on SIGTERM while the target holds an attempt open', async () => {
    const { dataDir, database } = await prepare();
    receiver!.script(['hang']);
    // The defaults an operator has: an attempt may wait 10 s for an answer, shutdown allows 5 s.
    const env = serverEnv(dataDir, { WEBHOOK_TIMEOUT: '10s', SHUTDOWN_GRACE: '5s' });
    const first = spawnServer(env);
    await first.listening();
    await receiver!.waitFor(1);
    const signalled = performance.now();
    const exit = await first.stop('SIGTERM');
    const exitMs = performance.now() - signalled;
    expect(exit.code).toBe(0);
    expect(exitMs).toBeLessThan(5_000 + 1_000);
    // Abandoned, not failed: still queued, no attempt counted, claim released.
    const [held] = await deliveryRows(database);
    expect([held!.status, held!.attempts]).toEqual(['pending', 0]);

    // The next process sends it at once (no lease to wait out), with the same webhook-id.
    const second = spawnServer(serverEnv(dataDir, {}));
    await second.listening();
    await receiver!.waitFor(2);
    const [attempted, delivered] = receiver!.received;
    expect(delivered!.id).toBe(attempted!.id);
    expect(delivered!.answered).toBe(200);
  });
});
