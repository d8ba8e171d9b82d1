// Issue 22 suspicion: exchange rates differ between replicas for hours, because only the replica
// that ran the sync refreshed them (the others waited for their own SYNC_INTERVAL timer). Two
// app instances on one database (PostgreSQL with Redis, and SQLite where only the version check
// carries the news), the ECB document on a real local HTTP server: after a sync on one, the
// other converts at the new rates too.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { redisUnavailableReason, TEST_REDIS_URL } from '../support/infra-backends.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { eventually, sleep } from '../support/wait.js';

const BUNDLED = readFileSync(
  new URL('../../data/snapshots/fx/eurofxref-daily.xml', import.meta.url),
  'utf8',
);
/** The next ECB day: another date and another JPY rate. */
const NEXT_DAY = BUNDLED.replace("time='2026-10-06'", "time='2026-10-07'").replace(
  "currency='JPY' rate='178.15'",
  "currency='JPY' rate='180.30'",
);
const redisReason = await redisUnavailableReason(TEST_REDIS_URL);

interface ExchangeRateNote {
  readonly as_of: string;
  readonly rate: number;
}

for (const backend of await storeBackends())
  describeStoreBackend('exchange rates across replicas', backend, () => {
    let database: IsolatedDatabase;
    let fxRoot: string;
    let fx: FakeUpstream;
    let syncing: TestApp;
    let other: TestApp;

    beforeEach(async () => {
      database = await backend.isolate();
      fxRoot = mkdtempSync(path.join(tmpdir(), 'cloudprice-fx-replicas-'));
      mkdirSync(path.join(fxRoot, 'fx'));
      writeFileSync(path.join(fxRoot, 'fx', 'eurofxref-daily.xml'), BUNDLED);
      fx = await startFakeUpstream({ root: fxRoot });
      const env = {
        DATABASE_URL: database.url,
        FX_RATES_URL: `${fx.url}/fx/eurofxref-daily.xml`,
        // PostgreSQL replicas share Redis when there is one; SQLite ones only the database file.
        ...(backend.name === 'postgres' &&
          redisReason === undefined && { REDIS_URL: TEST_REDIS_URL }),
      };
      syncing = await createTestApp(env);
      other = await createTestApp(env);
    });
    afterEach(async () => {
      await other.close();
      await syncing.close();
      await fx.close();
      rmSync(fxRoot, { recursive: true, force: true });
      await database.drop();
    });

    const sync = async (app: TestApp) => {
      const response = await app.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_a'] },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ data: { success: boolean } }>().data.success).toBe(true);
    };
    let client = 0;
    const rateUsedBy = async (app: TestApp): Promise<ExchangeRateNote | undefined> => {
      const response = await app.app.inject({
        url: '/instances?currency=JPY&limit=1',
        headers: auth,
        // A client address per request: the rate limit is not what this test is about.
        remoteAddress: `10.7.${(++client >> 8) & 255}.${client & 255}`,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { metadata: { exchange_rate?: ExchangeRateNote } } }>().data
        .metadata.exchange_rate;
    };

    it('a sync on one replica brings the new rates to the other', async () => {
      const firstSync = Date.now();
      await sync(syncing);
      // The other serves that catalogue and has read the rates for it (same document still).
      await eventually(async () => {
        const version = await syncing.services.store.catalogVersion();
        const refreshed = Date.parse(other.services.rates.health().last_refresh ?? '');
        if (other.services.catalog.current?.version !== version || !(refreshed >= firstSync))
          throw new Error('the other replica has not seen the first sync');
      }, 10_000);
      const before = await rateUsedBy(other);
      expect(before?.as_of).toBe('2026-10-06');

      // The ECB publishes the next day's rates; one replica syncs.
      writeFileSync(path.join(fxRoot, 'fx', 'eurofxref-daily.xml'), NEXT_DAY);
      fx.clearRequests();
      await sync(syncing);
      const fresh = await rateUsedBy(syncing);
      expect(fresh?.as_of).toBe('2026-10-07');

      // The other converts at the same rates within seconds, not at its next scheduled refresh.
      const seen = await eventually(async () => {
        const note = await rateUsedBy(other);
        if (note?.as_of !== '2026-10-07') throw new Error(`still ${note?.as_of}`);
        return note;
      }, 10_000);
      expect(seen).toEqual(fresh);
      expect(fresh?.rate).not.toBe(before?.rate);
      // One read each: the syncing replica does not read again for the catalogue it committed.
      await sleep(1_500);
      expect(fx.requests.filter((r) => r.path.startsWith('/fx/')).length).toBe(2);
    });
  });
