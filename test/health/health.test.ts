// GET /health (spec 3 and 4.1, D2, D32, D33): per-provider freshness from the sync history,
// the overall rules, and a database that fails without the endpoint failing with it.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatSyncTime } from '../../src/health/health-service.js';
import type { ProviderName } from '../../src/catalog/model.js';
import type { ProviderCatalog } from '../../src/catalog/offers.js';
import { storeBackends } from '../support/backends.js';
import { generateCatalogs } from '../support/generate-catalog.js';
import { sleep, waitFor } from '../support/wait.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface ProviderHealth {
  name: ProviderName;
  status: string;
  last_sync: string | null;
  sync_status: string;
  regions_count: number;
  instances_count: number;
  error?: string;
}

interface HealthBody {
  status: string;
  timestamp: string;
  components: {
    database: { status: string; latency_ms: number; error?: string };
    rate_limiter: { status: string };
    providers: ProviderHealth[];
  };
  summary: {
    total_providers: number;
    healthy_providers: number;
    total_regions: number;
    total_instances: number;
  };
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
const SYNC_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Small deterministic catalogues, one per provider, written through the store as a sync would. */
const CATALOGS = new Map(generateCatalogs(60, 3).map((c) => [c.provider, c]));
const catalog = (provider: ProviderName): ProviderCatalog => CATALOGS.get(provider)!;

async function health(t: TestApp) {
  const response = await t.app.inject({ method: 'GET', url: '/health', headers: auth });
  return { status: response.statusCode, body: response.json<HealthBody>() };
}

const byName = (body: HealthBody, name: ProviderName) =>
  body.components.providers.find((p) => p.name === name)!;

/** A successful run of `provider` that completed at `at` (ms since the epoch). */
function succeededAt(t: TestApp, provider: ProviderName, at: number) {
  return t.services.store.applyProviderCatalog(catalog(provider), {
    syncId: `sync_${at}_health${provider.slice(-1)}0000`,
    provider,
    startedAt: new Date(at - 1000),
    completedAt: new Date(at),
  });
}

function failedAt(t: TestApp, provider: ProviderName, at: number, message: string) {
  return t.services.store.recordFailedRun({
    syncId: `sync_${at}_failed${provider.slice(-1)}0000`,
    provider,
    startedAt: new Date(at - 1000),
    completedAt: new Date(at),
    success: false,
    counts: { regions: 0, instances: 0, pricing: 0 },
    errorCode: 'UPSTREAM_HTTP_ERROR',
    errorMessage: message,
  });
}

/** The report's own arithmetic (4.1, D33). */
function expectConsistentSummary(body: HealthBody) {
  const providers = body.components.providers;
  expect(providers.map((p) => p.name)).toEqual(['provider_a', 'provider_b', 'provider_c']);
  expect(body.summary).toEqual({
    total_providers: 3,
    healthy_providers: providers.filter((p) => p.status === 'healthy').length,
    total_regions: providers.reduce((n, p) => n + p.regions_count, 0),
    total_instances: providers.reduce((n, p) => n + p.instances_count, 0),
  });
  expect(body.timestamp).toMatch(ISO_MS);
  expect(Number.isInteger(body.components.database.latency_ms)).toBe(true);
}

describe('GET /health', () => {
  const apps: TestApp[] = [];
  const newApp = async (env: Record<string, string> = {}) => {
    const t = await createTestApp(env);
    apps.push(t);
    return t;
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });

  it('answers 503 unhealthy for an empty catalogue, every provider never synced', async () => {
    const t = await newApp();
    const { status, body } = await health(t);
    expect(status).toBe(503);
    expect(body.status).toBe('unhealthy');
    expect(body.components.database.status).toBe('healthy');
    expectConsistentSummary(body);
    for (const provider of body.components.providers) {
      expect(provider).toMatchObject({
        status: 'unhealthy',
        sync_status: 'never',
        last_sync: null,
        regions_count: 0,
        instances_count: 0,
      });
    }
    expect(body.summary.healthy_providers).toBe(0);
  });

  it('requires a key like every endpoint', async () => {
    const t = await newApp();
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 200 healthy once every provider synced, with counts and the sync time', async () => {
    const t = await newApp();
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a', 'provider_b', 'provider_c'] },
    });
    expect(sync.statusCode).toBe(200);
    const report = sync.json<{
      data: {
        success: boolean;
        started_at: string;
        completed_at: string;
        providers: Array<{
          provider: ProviderName;
          regions_synced: number;
          pricing_synced: number;
        }>;
      };
    }>().data;
    expect(report.success).toBe(true);

    const { status, body } = await health(t);
    expect(status).toBe(200);
    expect(body.status).toBe('healthy');
    expectConsistentSummary(body);
    expect(body.summary.healthy_providers).toBe(3);
    // Whole seconds of the run's time, so inside the request's window truncated to seconds.
    const lowest = formatSyncTime(new Date(report.started_at));
    const highest = formatSyncTime(new Date(report.completed_at));
    for (const result of report.providers) {
      const provider = byName(body, result.provider);
      expect(provider).toMatchObject({ status: 'healthy', sync_status: 'success' });
      expect(provider).not.toHaveProperty('error');
      expect(provider.last_sync).toMatch(SYNC_TIME);
      expect(provider.last_sync! >= lowest && provider.last_sync! <= highest).toBe(true);
      expect(provider.instances_count).toBe(result.pricing_synced);
      expect(provider.regions_count).toBe(result.regions_synced);
    }
  });

  it('stores the run completion time as the sync time (health and /instances agree)', async () => {
    const t = await newApp();
    const at = Date.now() - 3 * HOUR - 123;
    await succeededAt(t, 'provider_a', at);
    const { body } = await health(t);
    expect(byName(body, 'provider_a').last_sync).toBe(formatSyncTime(new Date(at)));
    const instances = await t.app.inject({
      method: 'GET',
      url: '/instances?limit=1',
      headers: auth,
    });
    const lastSync = instances.json<{ data: { metadata: { last_sync: string } } }>().data.metadata
      .last_sync;
    expect(lastSync).toBe(new Date(at).toISOString());
  });

  it('rates providers by age: healthy < 24 h, degraded 24 to 48 h, unhealthy > 48 h', async () => {
    const t = await newApp();
    const now = Date.now();
    await succeededAt(t, 'provider_a', now - HOUR);
    await succeededAt(t, 'provider_b', now - 30 * HOUR);
    await succeededAt(t, 'provider_c', now - 50 * HOUR);
    const { status, body } = await health(t);
    expect(status).toBe(503);
    expect(body.status).toBe('degraded');
    expectConsistentSummary(body);
    expect(body.components.providers.map((p) => [p.name, p.status, p.sync_status])).toEqual([
      ['provider_a', 'healthy', 'success'],
      ['provider_b', 'degraded', 'success'],
      ['provider_c', 'unhealthy', 'success'],
    ]);
    expect(body.summary.healthy_providers).toBe(1);
    // The data of a stale provider is still served and counted.
    const records = catalog('provider_c').offers.length;
    expect(byName(body, 'provider_c').instances_count).toBe(records);
    expect(byName(body, 'provider_c').last_sync).toBe(formatSyncTime(new Date(now - 50 * HOUR)));
  });

  it('puts the boundaries at 24 h and 48 h (minutes either side)', async () => {
    const t = await newApp();
    const now = Date.now();
    await succeededAt(t, 'provider_a', now - 24 * HOUR + 2 * MINUTE);
    await succeededAt(t, 'provider_b', now - 24 * HOUR - 2 * MINUTE);
    await succeededAt(t, 'provider_c', now - 48 * HOUR + 2 * MINUTE);
    const first = (await health(t)).body;
    expect(first.components.providers.map((p) => p.status)).toEqual([
      'healthy',
      'degraded',
      'degraded',
    ]);
    const u = await newApp();
    await succeededAt(u, 'provider_a', now - HOUR);
    await succeededAt(u, 'provider_c', now - 48 * HOUR - 2 * MINUTE);
    expect(byName((await health(u)).body, 'provider_c').status).toBe('unhealthy');
  });

  it('marks a provider degraded when its latest attempt failed, with the error, until one succeeds', async () => {
    const t = await newApp();
    const now = Date.now();
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      await succeededAt(t, provider, now - 2 * HOUR);
    }
    expect((await health(t)).status).toBe(200);

    await failedAt(t, 'provider_b', now - HOUR, 'upstream answered HTTP 503 (GET /plans)');
    const failed = await health(t);
    expect(failed.status).toBe(503);
    expect(failed.body.status).toBe('degraded');
    expect(byName(failed.body, 'provider_b')).toMatchObject({
      status: 'degraded',
      sync_status: 'failed',
      error: 'upstream answered HTTP 503 (GET /plans)',
      // The last success and its data are still there.
      last_sync: formatSyncTime(new Date(now - 2 * HOUR)),
      instances_count: catalog('provider_b').offers.length,
    });
    expect(failed.body.summary.healthy_providers).toBe(2);

    await succeededAt(t, 'provider_b', now - MINUTE);
    const recovered = await health(t);
    expect(recovered.status).toBe(200);
    expect(byName(recovered.body, 'provider_b')).toMatchObject({
      status: 'healthy',
      sync_status: 'success',
    });
    expect(byName(recovered.body, 'provider_b')).not.toHaveProperty('error');
  });

  it('marks a provider degraded when its latest sync skipped records, naming the count (issue 35)', async () => {
    const t = await newApp();
    const now = Date.now();
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      await succeededAt(t, provider, now - 2 * HOUR);
    }
    await t.services.store.applyProviderCatalog(catalog('provider_c'), {
      syncId: `sync_${now - HOUR}_skipped00000`,
      provider: 'provider_c',
      startedAt: new Date(now - HOUR - 1000),
      completedAt: new Date(now - HOUR),
      skippedRecords: 7,
    });
    const skipped = await health(t);
    expect(skipped.status).toBe(503);
    expect(skipped.body.status).toBe('degraded');
    expect(byName(skipped.body, 'provider_c')).toMatchObject({
      status: 'degraded',
      sync_status: 'success',
      skipped_records: 7,
      error:
        'The last sync skipped 7 upstream records that failed validation; their previous prices and availability are kept',
    });
    expect(skipped.body.summary.healthy_providers).toBe(2);

    await succeededAt(t, 'provider_c', now - MINUTE);
    const clean = byName((await health(t)).body, 'provider_c');
    expect(clean.status).toBe('healthy');
    expect(clean).not.toHaveProperty('skipped_records');
    expect(clean).not.toHaveProperty('error');
  });

  it('keeps a provider that only ever failed unhealthy, with its error and no last_sync', async () => {
    const t = await newApp();
    const now = Date.now();
    await succeededAt(t, 'provider_a', now - HOUR);
    await succeededAt(t, 'provider_b', now - HOUR);
    await failedAt(t, 'provider_c', now - MINUTE, 'request did not complete within 3000 ms');
    const { status, body } = await health(t);
    expect(status).toBe(503);
    // Not every provider is unhealthy: degraded overall.
    expect(body.status).toBe('degraded');
    expect(byName(body, 'provider_c')).toMatchObject({
      status: 'unhealthy',
      sync_status: 'failed',
      last_sync: null,
      error: 'request did not complete within 3000 ms',
    });
  });

  it('is unhealthy overall when every provider is unhealthy, though the database is fine', async () => {
    const t = await newApp();
    const now = Date.now();
    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      await succeededAt(t, provider, now - 72 * HOUR);
    }
    const { status, body } = await health(t);
    expect(status).toBe(503);
    expect(body.status).toBe('unhealthy');
    expect(body.components.database.status).toBe('healthy');
    expect(body.summary.total_instances).toBeGreaterThan(0);
  });

  it('is unhealthy (503, not 500) when the database is closed', async () => {
    const t = await newApp();
    await succeededAt(t, 'provider_a', Date.now() - HOUR);
    await t.services.store.close();
    const { status, body } = await health(t);
    expect(status).toBe(503);
    expect(body.status).toBe('unhealthy');
    expect(body.components.database.status).toBe('unhealthy');
    expect(body.components.database.error).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toMatch(/closed|sqlite|Error:/i);
    expectConsistentSummary(body);
    expect(body.components.providers.every((p) => p.status === 'unhealthy')).toBe(true);
  });

  it('is unhealthy when the database answers but the catalogue cannot be read', async () => {
    const t = await newApp();
    await succeededAt(t, 'provider_a', Date.now() - HOUR);
    const db = openSqlite(t.services.config.databaseUrl);
    try {
      db.exec('drop table sync_runs');
    } finally {
      db.close();
    }
    const { status, body } = await health(t);
    expect(status).toBe(503);
    expect(body.status).toBe('unhealthy');
    expect(body.components.database.status).toBe('unhealthy');
    expect(JSON.stringify(body)).not.toMatch(/no such table|sync_runs/i);
  });
});

/** A TCP proxy in front of PostgreSQL that the test can cut, as a network failure would. */
async function startCuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describe('GET /health on PostgreSQL when the database connection fails', async () => {
  const backend = (await storeBackends()).find((b) => b.name === 'postgres');
  const reason = backend === undefined ? 'not requested' : backend.skipReason;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** An app on a fresh PostgreSQL schema, reached through a proxy the test can cut. */
  async function appBehindProxy() {
    const database = await backend!.isolate();
    cleanups.push(() => database.drop());
    const url = new URL(database.url);
    const proxy = await startCuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    cleanups.push(() => proxy.cut());
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const t = await createTestApp({ DATABASE_URL: url.toString() });
    cleanups.push(() => t.close());
    await succeededAt(t, 'provider_a', Date.now() - HOUR);
    expect((await health(t)).body.components.database.status).toBe('healthy');
    return { t, proxy };
  }

  it.skipIf(reason !== undefined && process.env['CI'] !== 'true')(
    'answers 503 unhealthy within the check timeout',
    async () => {
      const { t, proxy } = await appBehindProxy();
      await proxy.cut();
      // Let the idle pooled connections notice first (see the next test for the other order).
      await sleep(300);
      const started = Date.now();
      const { status, body } = await health(t);
      // Hang guard: the database check gives up after 2 s.
      expect(Date.now() - started).toBeLessThan(2_000 + 3_000);
      expect(status).toBe(503);
      expect(body.status).toBe('unhealthy');
      expect(body.components.database.status).toBe('unhealthy');
      expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|postgres/i);
    },
  );

  // Regression guard for a process crash: a pooled connection that is checked out (a query in
  // flight, or the provider lock a sync holds for its whole run) when the connection drops
  // emits 'error' with no listener, which is an uncaught exception that ends the server. If
  // this test fails with "Unhandled error: Connection terminated unexpectedly", that is the bug.
  it.skipIf(reason !== undefined && process.env['CI'] !== 'true')(
    'survives the connection dropping while a sync holds its provider lock',
    async () => {
      const { t, proxy } = await appBehindProxy();
      let locked = false;
      const held = t.services.store.withProviderLock('provider_b', async () => {
        locked = true;
        await sleep(500);
      });
      await waitFor(() => locked, 5_000);
      await proxy.cut();
      await held.catch(() => undefined);
      const { status, body } = await health(t);
      expect(status).toBe(503);
      expect(body.components.database.status).toBe('unhealthy');
    },
  );

  it.skipIf(reason !== undefined && process.env['CI'] !== 'true')(
    'survives the connection dropping just as a request takes a pooled connection',
    async () => {
      const { t, proxy } = await appBehindProxy();
      await proxy.cut();
      const { status, body } = await health(t);
      expect(status).toBe(503);
      expect(body.status).toBe('unhealthy');
    },
  );
});
