// Regression (issue 35 item 12, "the production shape under real faults"): with PostgreSQL
// stopped under the compose stack, the reads that need the database (/instances/{id}/history,
// /changes, /instances?as_of=…) and the webhook routes answered 500 QUERY_FAILED, a server bug
// by its status, where the outage is a dependency being away: 503 SERVICE_UNAVAILABLE with
// Retry-After, as for Redis (D11), which balancers and clients retry. A query that fails on a
// database that answered stays 500 QUERY_FAILED. Reproduced through a real TCP proxy in front of
// the local PostgreSQL that closes every connection and refuses new ones.
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../src/storage/store-unavailable.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { eventually } from '../support/wait.js';

const postgres = (await storeBackends()).filter((backend) => backend.name === 'postgres');
for (const backend of postgres)
  describeStoreBackend('database-backed routes while PostgreSQL is unreachable', backend, () => {
    let database: IsolatedDatabase;
    let proxy: TcpProxy;
    let t: TestApp;

    beforeEach(async () => {
      database = await backend.isolate();
      proxy = await startTcpProxy('127.0.0.1', Number(new URL(database.url).port || 5432));
      t = await createTestApp({ DATABASE_URL: proxy.via(database.url) });
      await loadCatalogs(t.services.store, generateCatalogs(60, 35));
    });
    afterEach(async () => {
      await proxy.close();
      await t.close();
      await database.drop();
    });

    const READS = ['/changes?since=2000-01-01', '/instances?as_of=2026-01-01', '/webhooks'];

    it('unavailable-database defect: 503 SERVICE_UNAVAILABLE with Retry-After, then 200 again', async () => {
      const listed = await t.app.inject({ url: '/instances?limit=1', headers: auth });
      const id = listed.json<{ data: { instances: { id: number }[] } }>().data.instances[0]!.id;
      const urls = [`/instances/${id}/history`, ...READS];
      for (const url of urls) {
        expect((await t.app.inject({ url, headers: auth })).statusCode, url).toBe(200);
      }

      await proxy.cut();
      for (const url of urls) {
        const response = await t.app.inject({ url, headers: auth });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after'], url).toBe('5');
        expect(response.json<{ error: { code: string } }>().error.code, url).toBe(
          'SERVICE_UNAVAILABLE',
        );
      }
      const created = await t.app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { url: 'https://93.184.215.14/hook', events: ['sync.completed'] },
      });
      expect(created.statusCode).toBe(503);

      await proxy.reopen();
      for (const url of urls) {
        await eventually(async () => {
          const response = await t.app.inject({ url, headers: auth });
          if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
        }, 20_000);
      }
    });

    it('tells an unreachable or stopping server from a failed query, on real errors', async () => {
      // Refused: nothing listens on the proxy's port after a cut.
      await proxy.cut();
      const refused = new pg.Client({ connectionString: proxy.via(database.url) });
      const refusal = await refused.connect().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isStoreUnavailable(refusal)).toBe(true);
      await proxy.reopen();

      // A server ending the session (as on a stop: admin_shutdown, 57P01).
      const victim = new pg.Client({ connectionString: database.url });
      await victim.connect();
      // `on`, not `once`: pg may emit a second error ("Connection terminated unexpectedly") as
      // the socket closes, which with no listener left is an uncaught exception.
      const ended = new Promise<unknown>((resolve) => victim.on('error', resolve));
      const pid = (
        (await victim.query('select pg_backend_pid() as pid')).rows[0] as { pid: number }
      ).pid;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      const terminated = await ended;
      expect((terminated as { code?: string }).code).toBe('57P01');
      expect(isStoreUnavailable(terminated)).toBe(true);
      const afterwards = await victim.query('select 1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isStoreUnavailable(afterwards)).toBe(true);
      await victim.end().catch(() => undefined);

      // A database that answered: a failed query is not an outage.
      const failed = await admin.query('select * from no_such_table').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failed as { code?: string }).code).toBe('42P01');
      expect(isStoreUnavailable(failed)).toBe(false);
      expect(isStoreUnavailable(new Error('boom'))).toBe(false);
      expect(isStoreUnavailable('ECONNREFUSED')).toBe(false);
      await admin.end();
    });
  });
