/**
 * Two replica processes started at the same moment, as `docker compose up` starts them: each
 * runs the migrations at start, under the migrator's lock, so one waits for the other for as
 * long as that one migrates. On a loaded host that wait is longer than any single query may
 * take (QUERY_TIMEOUT_MS), and it must not fail the start (issue 27: the compose stack).
 *
 * Needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL): skipped with the reason when
 * either is unreachable, failed when CI=true. The replicas use a database of their own (dropped
 * afterwards) and read the providers from the snapshots in data/snapshots, never the web.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { QUERY_TIMEOUT_MS } from '../../src/storage/postgres/postgres-catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { postgresUnavailableReason, TEST_DATABASE_URL } from '../support/backends.js';
import {
  describeBackend,
  redisUnavailableReason,
  TEST_REDIS_URL,
} from '../support/infra-backends.js';
import { eventually, sleep } from '../support/wait.js';
import { createReplicaDatabase } from './replica-database.js';
import {
  call,
  CLIENT_HEADER,
  postSync,
  REPLICA_API_KEY,
  type InstancesJson,
} from './replica-http.js';
import { startReplica, type Replica } from './replica-process.js';

const unavailable =
  [await postgresUnavailableReason(TEST_DATABASE_URL), await redisUnavailableReason(TEST_REDIS_URL)]
    .filter((reason) => reason !== undefined)
    .join('; ') || undefined;

const SNAPSHOTS = fileURLToPath(new URL('../../data/snapshots/', import.meta.url));
const APP_PREFIX = 'cloudprice_start_';
/** Kysely's migration table (its documented default name), read by the migrator under its lock. */
const MIGRATION_TABLE = 'kysely_migration';

describeBackend(
  'Two replicas starting at once on one PostgreSQL',
  { name: 'postgres+redis', unavailable },
  () => {
    it('both wait for migrations held up longer than a query may take, then serve, and a sync succeeds', async () => {
      const db = await createReplicaDatabase();
      const holder = await db.connect();
      let starting: Promise<PromiseSettledResult<Replica>[]> | undefined;
      try {
        // An up-to-date schema with an empty catalogue: the replicas' migrators find nothing to
        // apply, but read the migration table under the migrator's lock, as on every start.
        const setup = await createCatalogStore(db.urlFor(`${APP_PREFIX}setup`));
        await setup.migrate();
        await setup.close();

        // A migration in progress elsewhere: its transaction holds the migration table.
        await holder.query('begin');
        await holder.query(`lock table ${MIGRATION_TABLE} in access exclusive mode`);
        const env = (name: string): Record<string, string> => ({
          DATABASE_URL: db.urlFor(`${APP_PREFIX}${name}`),
          REDIS_URL: TEST_REDIS_URL,
          API_KEYS: REPLICA_API_KEY,
          CLIENT_IP_HEADER: CLIENT_HEADER,
          SYNC_INTERVAL: '0',
          LOG_LEVEL: 'warn',
          PROVIDER_A_URL: `file://${SNAPSHOTS}provider_a/`,
          PROVIDER_B_URL: `file://${SNAPSHOTS}provider_b/`,
          PROVIDER_C_URL: `file://${SNAPSHOTS}provider_c/`,
          FX_RATES_URL: `file://${SNAPSHOTS}fx/eurofxref-daily.xml`,
        });
        starting = Promise.allSettled(
          ['one', 'two'].map((name) => startReplica(`start-${name}`, env(name), 150_000)),
        );
        // Both are held up: one behind the table lock, the other behind the migrator's lock.
        await eventually(async () => {
          const { waiting } = await db.queryOne<{ waiting: string }>(
            `select count(distinct application_name) as waiting from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'
               and application_name in ($1, $2)`,
            [`${APP_PREFIX}one`, `${APP_PREFIX}two`],
          );
          expect(Number(waiting)).toBe(2);
        }, 120_000);
        await sleep(QUERY_TIMEOUT_MS + 1_000);
        await holder.query('rollback');

        const started = await starting;
        // A replica that gave up says why (its output is in the reason).
        expect(
          started.map((r) => (r.status === 'fulfilled' ? 'listening' : String(r.reason))),
        ).toEqual(['listening', 'listening']);
        const replicas = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));

        const client = `start-${randomUUID()}`;
        // Both filled the empty catalogue before they listened.
        for (const replica of replicas) {
          expect((await call(replica, '/health', client)).status).toBe(200);
        }
        const sync = await postSync(
          replicas[1] ?? expect.unreachable(),
          ['provider_a', 'provider_b', 'provider_c'],
          client,
        );
        expect(sync.status).toBe(200);
        expect(sync.body.data?.providers.map((p) => p.success)).toEqual([true, true, true]);
        const totals = await Promise.all(
          replicas.map(
            async (replica) =>
              (await call<InstancesJson>(replica, '/instances?limit=1', client)).body.data
                .pagination.total,
          ),
        );
        expect(totals[0]).toBeGreaterThan(0);
        expect(totals[1]).toBe(totals[0]);
      } finally {
        // Ends the holder's transaction if the test failed before it did.
        await holder.end();
        const started = (await starting) ?? [];
        await Promise.allSettled(
          started.flatMap((r) => (r.status === 'fulfilled' ? [r.value.stop()] : [])),
        );
        await db.drop();
      }
    }, 240_000);
  },
);
