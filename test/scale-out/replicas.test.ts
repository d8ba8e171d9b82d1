/**
 * Two real server processes behind nothing but their sockets, sharing one PostgreSQL database
 * and one Redis, as a scaled-out deployment would (issue "Scale-out", items 3, 6, 7, 8):
 * rate limits count across replicas, a sync on one replica empties the other's cache, a replica
 * killed in the middle of a sync loses nothing, and two replicas never sync a provider at once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL): skipped with the reason when
 * either is unreachable, failed when CI=true. The replicas use their own fresh database (dropped
 * afterwards) and fetch every provider from a fake upstream on 127.0.0.1, never the web.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postgresUnavailableReason, TEST_DATABASE_URL } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import {
  describeBackend,
  redisUnavailableReason,
  TEST_REDIS_URL,
} from '../support/infra-backends.js';
import { eventually, sleep } from '../support/wait.js';
import { providerBPlans } from './provider-b-documents.js';
import {
  catalogFingerprint,
  createReplicaDatabase,
  type ReplicaDatabase,
} from './replica-database.js';
import {
  CLIENT_HEADER,
  getInstances,
  monthlyPrices,
  postSync,
  REPLICA_API_KEY,
} from './replica-http.js';
import { startReplica, type Replica } from './replica-process.js';

const unavailable =
  [await postgresUnavailableReason(TEST_DATABASE_URL), await redisUnavailableReason(TEST_REDIS_URL)]
    .filter((reason) => reason !== undefined)
    .join('; ') || undefined;

const APP_NAME_1 = 'cloudprice_replica_1';
const APP_NAME_2 = 'cloudprice_replica_2';

/** A client address of its own per test (see CLIENT_HEADER): counters nobody else touches. */
const newClient = (test: string) => `scale-out-${test}-${randomUUID()}`;
const minuteOf = (ms: number) => Math.floor(ms / 60_000);

describeBackend(
  'Scale-out: two replica processes on one PostgreSQL and one Redis',
  { name: 'postgres+redis', unavailable },
  () => {
    let fake: FakeUpstream | undefined;
    let db: ReplicaDatabase | undefined;
    let replica1: Replica | undefined;
    let replica2: Replica | undefined;
    const r1 = () => replica1 ?? expect.unreachable('replica 1 did not start');
    const r2 = () => replica2 ?? expect.unreachable('replica 2 did not start');
    const database = () => db ?? expect.unreachable('no database');
    const upstream = () => fake ?? expect.unreachable('no fake upstream');

    function replicaEnv(applicationName: string): Record<string, string> {
      const base = upstream().url;
      return {
        DATABASE_URL: database().urlFor(applicationName),
        REDIS_URL: TEST_REDIS_URL,
        API_KEYS: REPLICA_API_KEY,
        CLIENT_IP_HEADER: CLIENT_HEADER,
        SYNC_INTERVAL: '0',
        LOG_LEVEL: 'warn',
        // A failed fetch fails at once; the retry policy has suites of its own.
        UPSTREAM_MAX_RETRIES: '0',
        PROVIDER_A_URL: `${base}/provider_a`,
        PROVIDER_B_URL: `${base}/provider_b`,
        // provider_c is served too (the bundled snapshot, if any); these tests do not look at it.
        PROVIDER_C_URL: `${base}/provider_c`,
      };
    }

    beforeAll(async () => {
      fake = await startFakeUpstream();
      db = await createReplicaDatabase();
      // One after the other: the first migrates and fills the empty catalogue, so the second
      // starts on a ready database (as a rolling deployment would).
      replica1 = await startReplica('replica-1', replicaEnv(APP_NAME_1));
      replica2 = await startReplica('replica-2', replicaEnv(APP_NAME_2));
      // A first request on a cold process is slow (JIT, first queries); take it out of the way
      // with a client address no test uses, as a load balancer's first health check would.
      for (const replica of [replica1, replica2]) {
        await getInstances(replica, '/instances?limit=1', newClient('warm-up'));
      }
    }, 180_000);

    afterAll(async () => {
      await Promise.allSettled([replica1?.stop(), replica2?.stop()]);
      await db?.drop();
      await fake?.close();
    }, 60_000);

    it('counts one client across both replicas: 100 alternating /instances pass, the 101st is 429', async () => {
      // Fixed windows are aligned to the clock minute (D8). 100 requests take about a second;
      // starting them before second 50 keeps the whole burst in one window (both replicas read
      // the same system clock), so a window reset cannot hand out a fresh 100. That is a
      // precondition of the check, not a timing assertion; should a very slow run still cross
      // the minute, the burst is repeated with a fresh client.
      for (let attempt = 1; ; attempt += 1) {
        const intoMinute = Date.now() % 60_000;
        if (intoMinute >= 50_000) await sleep(60_000 - intoMinute + 100);
        const client = newClient('a');
        const minute = minuteOf(Date.now());
        const statuses: number[] = [];
        const remaining: (string | null)[] = [];
        const problems: string[] = [];
        for (let i = 0; i < 100; i += 1) {
          const replica = i % 2 === 0 ? r1() : r2();
          const reply = await getInstances(replica, '/instances?limit=1', client);
          statuses.push(reply.status);
          remaining.push(reply.headers.get('ratelimit-remaining'));
          if (reply.status !== 200) {
            problems.push(
              `#${i + 1} ${replica.name}: ${reply.status} ${JSON.stringify(reply.body)}`,
            );
          }
        }
        const over1 = await getInstances(r1(), '/instances?limit=1', client);
        const over2 = await getInstances(r2(), '/instances?limit=1', client);
        if (minuteOf(Date.now()) !== minute && attempt < 3) continue;

        expect(minuteOf(Date.now()), 'the burst stayed in one clock minute').toBe(minute);
        const logs = () => `${r1().name}:\n${r1().output()}\n${r2().name}:\n${r2().output()}`;
        expect(statuses, `${problems.join('\n')}\n${problems.length > 0 ? logs() : ''}`).toEqual(
          Array.from({ length: 100 }, () => 200),
        );
        // One shared counter: the n-th request leaves 100 - n, whichever replica served it.
        expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => String(99 - i)));
        for (const over of [over1, over2]) {
          expect(over.status).toBe(429);
          expect(over.body.error?.code).toBe('RATE_LIMIT_EXCEEDED');
          expect(over.body.error?.details?.['limit']).toBe(100);
        }
        return;
      }
    }, 120_000);

    it('a sync through replica 1 empties replica 2’s /instances cache', async () => {
      const client = newClient('b');
      const query = '/instances?provider=provider_b&region=nrt&sort_by=price&limit=100';
      const first = await getInstances(r2(), query, client);
      const second = await getInstances(r2(), query, client);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.data.metadata.cached).toBe(true);
      const before = monthlyPrices(second.body);

      const next = providerBPlans(2);
      upstream().setJson('/provider_b/plans', next.body);
      const sync = await postSync(r1(), ['provider_b'], client);
      expect(sync.status).toBe(200);
      expect(sync.body.data?.providers).toEqual([
        expect.objectContaining({ provider: 'provider_b', success: true }),
      ]);

      // Replica 2 hears of it over Redis pub/sub; poll (a hang guard, not a timing assertion)
      // until it answers from the database again.
      const fresh = await eventually(
        async () => {
          const reply = await getInstances(r2(), query, client);
          if (reply.status !== 200 || reply.body.data.metadata.cached) {
            throw new Error(`replica 2 still answers from its cache (status ${reply.status})`);
          }
          return reply;
        },
        10_000,
        100,
      );
      const after = monthlyPrices(fresh.body);
      const expected = [...next.expectedMonthly].filter(([key]) => key.endsWith('@nrt'));
      expect([...after].sort()).toEqual(expected.sort());
      expect(after.get('vc2-1c-1gb@nrt')).not.toBe(before.get('vc2-1c-1gb@nrt'));
    }, 60_000);

    it('two replicas syncing provider_b at once run one sync, and both report it (D24)', async () => {
      const client = newClient('d');
      const fake = upstream();
      // Two plans only: a small body, so dripping it a byte every 2 ms takes about a second,
      // during which the first sync holds the provider lock and the second waits for it. Two
      // plans remove most of provider_b's records, which a sync refuses without `force`.
      fake.setJson('/provider_b/plans', providerBPlans(3, 2).body);
      fake.setFault('/provider_b/plans', { kind: 'slow-drip', intervalMs: 2 });
      const { last } = await database().queryOne<{ last: number | null }>(
        'select max(id) as last from sync_runs',
      );
      fake.clearRequests();
      let results;
      try {
        results = await Promise.all([
          postSync(r1(), ['provider_b'], client, { force: true }),
          postSync(r2(), ['provider_b'], client, { force: true }),
        ]);
      } finally {
        fake.setFault('/provider_b/plans', null);
      }
      for (const result of results) {
        expect(result.status).toBe(200);
        expect(result.body.data?.providers[0]?.success).toBe(true);
      }
      // Both report the one sync's counts.
      expect(results[1].body.data?.providers[0]?.pricing_synced).toBe(
        results[0].body.data?.providers[0]?.pricing_synced,
      );
      // One sync fetched; the other waited for the lock and reported that sync's result.
      const fetches = fake.requests.filter((r) => r.path.startsWith('/provider_b/'));
      expect(fetches.map((r) => r.path.split('?')[0])).toEqual([
        '/provider_b/regions',
        '/provider_b/plans',
      ]);
      expect(fetches.every((r) => !r.closedEarly)).toBe(true);
      const runs = await database().query<{ success: number }>(
        `select success from sync_runs where provider = 'provider_b' and id > $1`,
        [last ?? 0],
      );
      expect(runs.map((r) => r.success)).toEqual([1]);
    }, 90_000);

    it('a replica killed inside its sync transaction loses nothing, and its lock is freed', async () => {
      const client = newClient('c');
      const db = database();
      const old = await catalogFingerprint(db);
      const oldAvailableB = (old['provider_b'] ?? []).filter((l) => l.endsWith('available=1'));
      expect(oldAvailableB.length).toBeGreaterThan(0);

      // Hold one provider_b region row: replica 1's apply transaction will have written (the
      // "mark unavailable" update runs first) and then wait on this row, so it can be killed
      // deterministically in the middle of the transaction rather than at a random moment.
      const blocker = await db.connect();
      let pendingSync: Promise<unknown> | undefined;
      try {
        await blocker.query('begin');
        await blocker.query(
          `select r.id from regions r join providers p on p.id = r.provider_id
            where p.name = 'provider_b' and r.region_code = 'nrt' for update`,
        );
        const next = providerBPlans(4);
        upstream().setJson('/provider_b/plans', next.body);
        // Never answered: replica 1 dies first. Its rejection ("fetch failed") is expected.
        pendingSync = postSync(r1(), ['provider_b'], client).catch(() => undefined);

        const [waiting] = await eventually(async () => {
          const rows = await db.query<{ xid: string | null }>(
            `select backend_xid::text as xid from pg_stat_activity
              where datname = current_database() and application_name = $1
                and wait_event_type = 'Lock'`,
            [APP_NAME_1],
          );
          if (rows.length === 0) throw new Error('replica 1 is not waiting inside its apply yet');
          return rows;
        }, 30_000);
        expect(waiting?.xid, 'the apply transaction has written already').not.toBeNull();
        const { held } = await db.queryOne<{ held: number }>(
          `select count(*)::int as held from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where l.locktype = 'advisory' and l.granted and a.application_name = $1`,
          [APP_NAME_1],
        );
        expect(held, 'replica 1 holds the provider_b advisory lock').toBe(1);

        // Meanwhile the other replica serves the committed catalogue, not the half-written one.
        const during = await getInstances(
          r2(),
          '/instances?provider=provider_b&limit=100&sort_by=vcpu',
          client,
        );
        expect(during.status).toBe(200);
        expect(during.body.data.pagination.total).toBe(oldAvailableB.length);

        await r1().kill('SIGKILL');
      } finally {
        await blocker.query('rollback').catch(() => undefined);
        await blocker.end().catch(() => undefined);
      }
      await pendingSync;

      // PostgreSQL ends the dead sessions: the transaction rolls back, the advisory lock goes.
      await eventually(async () => {
        const { sessions } = await db.queryOne<{ sessions: number }>(
          `select count(*)::int as sessions from pg_stat_activity
            where datname = current_database() and application_name = $1`,
          [APP_NAME_1],
        );
        if (sessions > 0) throw new Error(`${sessions} sessions of the killed replica remain`);
      }, 30_000);
      const { advisory } = await db.queryOne<{ advisory: number }>(
        `select count(*)::int as advisory from pg_locks
          where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(advisory).toBe(0);
      // Exactly the old catalogue, every provider, row for row.
      expect(await catalogFingerprint(db)).toEqual(old);

      const served = await getInstances(
        r2(),
        '/instances?provider=provider_b&limit=100&order=desc',
        client,
      );
      expect(served.status).toBe(200);
      expect(served.body.data.pagination.total).toBe(oldAvailableB.length);

      // The survivor takes the freed lock and syncs: exactly the new catalogue.
      const resync = await postSync(r2(), ['provider_b'], client);
      expect(resync.status).toBe(200);
      expect(resync.body.data?.providers[0]?.success).toBe(true);
      const after = await getInstances(r2(), '/instances?provider=provider_b&limit=100', client);
      expect([...monthlyPrices(after.body)].sort()).toEqual(
        [...providerBPlans(4).expectedMonthly].sort(),
      );
      const fingerprint = await catalogFingerprint(db);
      expect(fingerprint['provider_a']).toEqual(old['provider_a']);
    }, 120_000);
  },
);
