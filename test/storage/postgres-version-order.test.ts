// Regression (issue 15, suspected defect): on PostgreSQL the catalogue version was max(id) of
// the successful sync runs, an id handed out at INSERT, not at COMMIT. Two providers applied at
// once can commit out of id order: the version then stays the same across a commit, and every
// cache keyed by it (the page totals memo here, the index everywhere else) keeps the catalogue
// from before that commit. SQLite is not concerned: its applies hold the write lock from their
// first statement to their commit, so ids and commits have one order.
import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndexHolder } from '../../src/catalog/index/catalog-index-holder.js';
import { applyProviderCatalogInTransaction, planApply } from '../../src/storage/catalog-apply.js';
import type { CatalogDatabase } from '../../src/storage/catalog-schema.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceQuery } from '../../src/catalog/record-query.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { eventually, waitFor } from '../support/wait.js';
import { run } from './catalog-fixtures.js';

const EVERYTHING: InstanceQuery = {
  filter: {},
  sort: 'monthly_price',
  order: 'asc',
  limit: 10,
  offset: 0,
};

const postgres = (await storeBackends()).filter((backend) => backend.name === 'postgres');
for (const backend of postgres) {
  describeStoreBackend('catalogue version order', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    let other: Kysely<CatalogDatabase>;
    let watcher: pg.Client;
    const applicationName = `cp_version_order_${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      database = await backend.isolate();
      const url = new URL(database.url);
      url.searchParams.set('application_name', applicationName);
      store = await createCatalogStore(url.toString(), {});
      await store.migrate();
      other = new Kysely<CatalogDatabase>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
      });
      watcher = new pg.Client({ connectionString: database.url });
      await watcher.connect();
    });
    afterAll(async () => {
      await watcher.end();
      await other.destroy();
      await store.close();
      await database.drop();
    });

    it('version-ordering defect: a commit that took its run id before another commit still changes the version', async () => {
      const [a, b] = generateCatalogs(120, 11);
      await loadCatalogs(store, [a!, b!]);
      const shrunkA = { ...a!, offers: a!.offers.slice(0, 5) };
      const repricedB = {
        ...b!,
        offers: b!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 1 })),
      };

      // A: applied (its run id taken) but not committed until released.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let appliedA = false;
      const runA = run('provider_a', new Date(Date.now() + 1_000));
      const committedA = other.transaction().execute(async (trx) => {
        await applyProviderCatalogInTransaction(trx, shrunkA, runA);
        appliedA = true;
        await gate;
      });
      await waitFor(() => appliedA, 10_000);

      // B: a later run id. It either commits now (ids out of commit order) or waits for A.
      const runB = run('provider_b', new Date(Date.now() + 2_000));
      let settledB = false;
      const committedB = store.applyProviderCatalog(repricedB, runB).finally(() => {
        settledB = true;
      });
      const waitingForLock = async () =>
        ((
          await watcher.query(
            `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
            [applicationName],
          )
        ).rowCount ?? 0) > 0;
      await eventually(async () => {
        if (!settledB && !(await waitingForLock()))
          throw new Error('B neither committed nor waits');
      }, 8_000);

      // A reader between the two commits memoises the total under the version it sees.
      await store.queryInstances(EVERYTHING);

      release();
      await Promise.all([committedA, committedB]);
      const expected = shrunkA.offers.length + repricedB.offers.length;
      expect((await store.queryInstances(EVERYTHING)).total).toBe(expected);
    });

    // Issue 22 item 3: the version row was bumped before the history, the webhook queueing and
    // the completion stamp, and stayed locked until COMMIT, so another provider's apply waited
    // for the whole rest of a slow one (and failed after the 10 s statement timeout). Here A's
    // apply is held in its history step (a third connection locks A's open price periods);
    // B's apply must commit meanwhile, and A must still commit afterwards with a higher version.
    it('version-row defect: an apply held in its history step does not hold up another provider', async () => {
      const [a, b] = generateCatalogs(120, 31);
      await loadCatalogs(store, [a!, b!]);
      const repricedA = {
        ...a!,
        offers: a!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 20_000 })),
      };
      const repricedB = {
        ...b!,
        offers: b!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 30_000 })),
      };
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query(
          `select h.id from price_history h
             join pricing p on p.id = h.pricing_id
             join instances i on i.id = p.instance_ref
             join providers pv on pv.id = i.provider_id
            where pv.name = 'provider_a' and h.valid_to is null for update of h`,
        );
        let settledA = false;
        const committedA = store
          .applyProviderCatalog(repricedA, run('provider_a'))
          .finally(() => (settledA = true));
        await eventually(async () => {
          const waiting = await watcher.query(
            `select 1 from pg_stat_activity where application_name = $1
               and wait_event_type = 'Lock' and query like 'update "price_history"%'`,
            [applicationName],
          );
          if ((waiting.rowCount ?? 0) === 0) throw new Error('A is not in its history step yet');
        }, 10_000);
        const versionBefore = await store.catalogVersion();
        const started = Date.now();
        await store.applyProviderCatalog(repricedB, run('provider_b'));
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(settledA).toBe(false);
        const versionB = await store.catalogVersion();
        expect(versionB).toBe(versionBefore + 1);
        await blocker.query('commit');
        await committedA;
        expect(await store.catalogVersion()).toBe(versionB + 1);
      } finally {
        await blocker.end();
      }
    });

    // What a replica's background check concludes (CatalogIndexHolder: read the version, rebuild
    // when it changed). Two real connections: A's apply is held open on one while B's apply runs
    // on the store's own pool; a check runs between the two commits and another after both.
    // With max(sync_runs.id) as the version, B (the higher id) committed first, the check between
    // saw B's id, and A's later commit (a lower id) left max(id) where it was: the check after
    // both kept the index without A's change until some later sync. With the catalog_version
    // row, B waits for A's row lock, so there is no commit between to see, and the version after
    // both is new.
    it('version-ordering defect: the version poll notices a commit whose run id is lower than one it already saw', async () => {
      const holder = new CatalogIndexHolder(store, { pollIntervalMs: 0 });
      const [a, b] = generateCatalogs(120, 23);
      await loadCatalogs(store, [a!, b!]);
      const before = await holder.start();
      const shrunkA = { ...a!, offers: a!.offers.slice(0, 3) };
      const repricedB = {
        ...b!,
        offers: b!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 10_000 })),
      };

      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let appliedA = false;
      const committedA = other.transaction().execute(async (trx) => {
        await applyProviderCatalogInTransaction(trx, shrunkA, run('provider_a'));
        appliedA = true;
        await gate;
      });
      await waitFor(() => appliedA, 10_000);
      // A's run id is taken: B's is higher.
      let settledB = false;
      const committedB = store.applyProviderCatalog(repricedB, run('provider_b')).finally(() => {
        settledB = true;
      });
      const waitingForLock = async () =>
        ((
          await watcher.query(
            `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
            [applicationName],
          )
        ).rowCount ?? 0) > 0;
      await eventually(async () => {
        if (!settledB && !(await waitingForLock()))
          throw new Error('B neither committed nor waits');
      }, 8_000);

      // The check between the commits.
      const between = await holder.refresh();

      release();
      await Promise.all([committedA, committedB]);
      // The check after both commits must serve both changes.
      const after = await holder.refresh();
      expect(after.version).toBeGreaterThan(between.version);
      const total = (index: typeof after, provider: 'provider_a' | 'provider_b') =>
        index.query({ ...EVERYTHING, filter: { provider } }).total;
      const pricesB = (index: typeof after) =>
        index
          .query({ ...EVERYTHING, filter: { provider: 'provider_b' }, limit: 1_000 })
          .rows.map((row) => row.monthlyMicros);
      expect(total(after, 'provider_a')).toBe(planApply(shrunkA).offers.length);
      expect(total(after, 'provider_a')).toBeLessThan(total(before, 'provider_a'));
      expect(pricesB(after)).toEqual(pricesB(before).map((micros) => micros + 10_000));
      holder.stop();
    });
  });
}
