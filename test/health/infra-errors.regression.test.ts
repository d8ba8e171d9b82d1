// Regression (issue 15 item 7): PostgreSQL pool background errors, Redis connection errors and
// invalidation-bus subscription failures were dropped. Each is now logged once per state change
// (one line when a component starts failing, one when it recovers, none per retry) and shown in
// GET /health. Real PostgreSQL (our connections killed with pg_terminate_backend) and real
// Redis behind a local TCP relay that can cut and refuse connections.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';
import {
  describeStoreBackend,
  storeBackends,
  TEST_DATABASE_URL,
  type IsolatedDatabase,
} from '../support/backends.js';
import {
  describeBackend,
  redisUnavailableReason,
  TEST_REDIS_URL,
} from '../support/infra-backends.js';
import { auth, fixtureSources, TEST_API_KEY } from '../support/test-app.js';
import { eventually, waitFor } from '../support/wait.js';

interface LogLine {
  readonly level: 'info' | 'error';
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

interface Harness {
  readonly services: Services;
  readonly app: FastifyInstance;
  readonly lines: LogLine[];
  close(): Promise<void>;
}

async function start(env: Record<string, string>): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-infra-errors-'));
  const lines: LogLine[] = [];
  const log = {
    info: (obj: unknown, msg: string) =>
      lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    error: (obj: unknown, msg: string) =>
      lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  const config = loadConfig({
    API_KEYS: TEST_API_KEY,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...fixtureSources(),
    ...env,
  });
  const services = await createServices(config, log);
  const app = await buildApp({ ...services, logger: false });
  return {
    services,
    app,
    lines,
    async close() {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Lines about one component (the ones this change adds), as [level, msg]. */
function componentLines(h: Harness, component: string): [string, string][] {
  return h.lines.filter((l) => l.obj['component'] === component).map((l) => [l.level, l.msg]);
}

interface HealthBody {
  status: string;
  components: {
    database: { status: string; last_error?: { message: string; code?: string; at: string } };
    rate_limiter: {
      status: string;
      error?: string;
      last_error?: { message: string; code?: string; at: string };
    };
    invalidation_bus?: {
      status: string;
      backend: string;
      error?: string;
      last_error?: { message: string; code?: string; at: string };
    };
  };
}

async function health(h: Harness): Promise<HealthBody> {
  const response = await h.app.inject({ method: 'GET', url: '/health', headers: auth });
  return response.json<HealthBody>();
}

const postgres = (await storeBackends()).find((b) => b.name === 'postgres');
if (postgres !== undefined) {
  describeStoreBackend('PostgreSQL pool background errors', postgres, () => {
    const appName = `cp_infra_${randomUUID().slice(0, 8)}`;
    let db: IsolatedDatabase;
    let h: Harness;
    beforeAll(async () => {
      db = await postgres.isolate();
      const url = new URL(db.url);
      url.searchParams.set('application_name', appName);
      h = await start({ DATABASE_URL: url.toString() });
    });
    afterAll(async () => {
      await h?.close();
      await db?.drop();
    });

    it('killed idle connections: one error line, one recovery line, last_error in /health', async () => {
      // Several idle connections in the pool, so several 'error' events for one outage.
      await Promise.all(Array.from({ length: 4 }, () => h.services.store.providerStates()));
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      let killed: number;
      try {
        const result = await admin.query(
          'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1) t',
          [appName],
        );
        killed = (result.rows[0] as { n: number }).n;
      } finally {
        await admin.end();
      }
      expect(killed).toBeGreaterThanOrEqual(2);
      await waitFor(() => componentLines(h, 'database').length > 0, 10_000);

      // /health's own ping opens a new connection once the pool has dropped every killed client
      // (a ping may still draw one whose termination the pool has not processed yet): the
      // database works again, and says what broke.
      const body = await eventually(async () => {
        const answer = await health(h);
        expect(answer.components.database.status).toBe('healthy');
        return answer;
      }, 10_000);
      expect(body.components.database.last_error).toEqual({
        message: 'terminating connection due to administrator command',
        code: '57P01',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      });
      expect(componentLines(h, 'database')).toEqual([
        ['error', 'database failing'],
        ['info', 'database recovered'],
      ]);
      const failing = h.lines.find((l) => l.msg === 'database failing')!;
      expect(failing.obj).toMatchObject({ component: 'database', source: 'pool' });
      expect((failing.obj['err'] as { code?: string }).code).toBe('57P01');
    });
  });
}

/** How a refused or cut connection reads, depending on where the socket was (a race). */
const DROPPED = expect.stringMatching(
  /^(connection closed|write EPIPE|read ECONNRESET)$/,
) as unknown;

/**
 * A relay in front of the real Redis: `forward` pipes each connection through; `refuse`
 * accepts and closes at once (a Redis that is down). `cut()` closes every relayed connection.
 */
async function startRelay(target: URL) {
  let mode: 'forward' | 'refuse' = 'refuse';
  let refused = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (mode === 'refuse') {
      refused += 1;
      socket.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
    socket.once('close', () => upstream.destroy());
    upstream.once('close', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    refusedCount: () => refused,
    setMode(next: 'forward' | 'refuse') {
      mode = next;
    },
    cut() {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describeBackend(
  'Redis connection and invalidation-bus errors',
  { name: 'redis', unavailable: await redisUnavailableReason(TEST_REDIS_URL) },
  () => {
    let relay: Awaited<ReturnType<typeof startRelay>>;
    let h: Harness;
    beforeAll(async () => {
      relay = await startRelay(new URL(TEST_REDIS_URL));
      h = await start({ REDIS_URL: relay.url });
    });
    afterAll(async () => {
      await h?.close();
      await relay?.close();
    });

    it('Redis down from the start: one line per component over many retries; /health says why', async () => {
      // Three connections (counters, bus publisher, bus subscriber) each retry every 500 ms.
      await waitFor(() => relay.refusedCount() >= 9, 20_000);
      expect(componentLines(h, 'rate_limiter')).toEqual([['error', 'rate_limiter failing']]);
      expect(componentLines(h, 'invalidation_bus')).toEqual([
        ['error', 'invalidation_bus failing'],
      ]);
      const body = await health(h);
      expect(body.components.rate_limiter).toMatchObject({
        status: 'unhealthy',
        last_error: { message: DROPPED },
      });
      expect(body.components.invalidation_bus).toMatchObject({
        status: 'degraded',
        backend: 'redis',
        error: DROPPED,
        last_error: { message: DROPPED },
      });
    });

    it('Redis back: one recovery line per component; then a cut connection is one more pair', async () => {
      relay.setMode('forward');
      await waitFor(
        () =>
          componentLines(h, 'rate_limiter').length === 2 &&
          componentLines(h, 'invalidation_bus').length === 2,
        20_000,
      );
      expect(componentLines(h, 'rate_limiter')).toEqual([
        ['error', 'rate_limiter failing'],
        ['info', 'rate_limiter recovered'],
      ]);
      const healthy = await health(h);
      expect(healthy.components.rate_limiter.status).toBe('healthy');
      expect(healthy.components.invalidation_bus).toMatchObject({
        status: 'healthy',
        last_error: { message: DROPPED },
      });
      expect(healthy.components.invalidation_bus?.error).toBeUndefined();

      // Every connection cut at once (as CLIENT KILL would), reconnecting through the relay.
      relay.cut();
      await waitFor(() => componentLines(h, 'invalidation_bus').length === 4, 20_000);
      await waitFor(() => componentLines(h, 'rate_limiter').length === 4, 20_000);
      expect(componentLines(h, 'invalidation_bus')).toEqual([
        ['error', 'invalidation_bus failing'],
        ['info', 'invalidation_bus recovered'],
        ['error', 'invalidation_bus failing'],
        ['info', 'invalidation_bus recovered'],
      ]);
    });
  },
);
