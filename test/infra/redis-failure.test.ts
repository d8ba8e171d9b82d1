/**
 * Real failure behaviour of the Redis pieces, no mocks: the rate limiter must fail FAST and
 * CLOSED (D11) and heal by itself. The 1 s and 5 s bounds are the requirements themselves
 * (normal values are ~0-300 ms and ~0.5-1 s), so they carry wide margins for a noisy machine.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterStore } from '../../src/infra/counter-store.js';
import type { InvalidationBus } from '../../src/infra/invalidation-bus.js';
import { RedisCounterStore } from '../../src/infra/redis/redis-counter-store.js';
import { RedisInvalidationBus } from '../../src/infra/redis/redis-invalidation-bus.js';
import { IS_CI, TEST_CHANNEL, TEST_KEY_PREFIX } from '../support/infra-backends.js';
import {
  findRedisServerBinary,
  freePort,
  killRedisServer,
  startRedisServer,
} from '../support/throwaway-redis.js';
import { eventually, sleep, waitFor } from '../support/wait.js';

const FAIL_FAST_MS = 1_000;
const RECOVERY_MS = 5_000;

/** Asserts that `attempt` rejects, and does so within FAIL_FAST_MS. */
async function expectFastRejection(attempt: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await expect(attempt()).rejects.toThrow();
  expect(performance.now() - started).toBeLessThan(FAIL_FAST_MS);
}

/** Checks fast rejection repeatedly over ~1.5 s, so every reconnection phase is hit. */
async function expectFastRejectionsOverTime(store: CounterStore): Promise<void> {
  for (let i = 0; i < 8; i += 1) {
    await expectFastRejection(() => store.increment('k', 60_000));
    await sleep(200);
  }
  await expectFastRejection(() => store.ping());
}

describe('Redis counter store with nothing listening on the port', () => {
  let store: CounterStore;
  let bus: InvalidationBus;
  beforeAll(async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    store = new RedisCounterStore(url, { keyPrefix: TEST_KEY_PREFIX });
    bus = new RedisInvalidationBus(url, { channel: TEST_CHANNEL });
  });
  afterAll(async () => {
    await Promise.all([store.close(), bus.close()]);
  });

  it('rejects increment within 1 s, from the first call on', async () => {
    await expectFastRejection(() => store.increment('k', 60_000));
    await expectFastRejectionsOverTime(store);
  });

  it('still drops the local cache on publish, then rejects', async () => {
    let calls = 0;
    const off = bus.subscribe(() => {
      calls += 1;
    });
    await expectFastRejection(() => bus.publish());
    expect(calls).toBe(1);
    off();
  });
});

describe('Redis counter store talking to a server that accepts but never answers', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  let accepted = 0;
  let store: CounterStore;
  beforeAll(async () => {
    server = createServer((socket) => {
      // Read and discard everything, answer nothing: a hung Redis or a black-holing proxy.
      accepted += 1;
      sockets.add(socket);
      socket.on('data', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    store = new RedisCounterStore(`redis://127.0.0.1:${address.port}`);
  });
  afterAll(async () => {
    await store.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('rejects increment within 1 s, whatever phase the connection is in', async () => {
    await expectFastRejection(() => store.increment('k', 60_000));
    await expectFastRejectionsOverTime(store);
    expect(accepted).toBeGreaterThan(0); // the client really reached our silent server
  });
});

const redisServer = findRedisServerBinary();
const noRedisServer = redisServer === undefined ? 'redis-server is not on PATH' : undefined;

describe.skipIf(noRedisServer !== undefined && !IS_CI)(
  `Redis pieces across a real redis-server crash and restart${noRedisServer === undefined ? '' : ` — SKIPPED: ${noRedisServer}`}`,
  () => {
    let port: number;
    let child: ChildProcess | undefined;
    let store: CounterStore;
    let replicaA: InvalidationBus;
    let replicaB: InvalidationBus;
    let heardByA = 0;

    beforeAll(async () => {
      if (redisServer === undefined) throw new Error(`${noRedisServer} (required when CI=true)`);
      port = await freePort();
      child = await startRedisServer(redisServer, port);
      const url = `redis://127.0.0.1:${port}`;
      store = new RedisCounterStore(url);
      replicaA = new RedisInvalidationBus(url);
      replicaB = new RedisInvalidationBus(url);
      replicaA.subscribe(() => {
        heardByA += 1;
      });
    });
    afterAll(async () => {
      await killRedisServer(child);
      await Promise.all([store?.close(), replicaA?.close(), replicaB?.close()]);
    });

    it('counts while the server is up', async () => {
      const first = await eventually(() => store.increment('up', 60_000), RECOVERY_MS);
      expect(await store.increment('up', 60_000)).toBe(first + 1);
      // Make sure A's subscription is live before the crash, so the reconnect is observable.
      await eventually(async () => {
        const before = heardByA;
        await replicaB.publish();
        await waitFor(() => heardByA > before, 200);
      }, RECOVERY_MS);
    });

    it('rejects fast after the server is SIGKILLed', async () => {
      await killRedisServer(child);
      await expectFastRejectionsOverTime(store);
    });

    it('counts again within 5 s of the server returning, and drops caches once', async () => {
      const beforeRestart = heardByA;
      child = await startRedisServer(redisServer ?? 'redis-server', port);
      const returned = performance.now();
      await eventually(() => store.increment('back', 60_000), RECOVERY_MS);
      expect(performance.now() - returned).toBeLessThan(RECOVERY_MS);
      // A may have missed a message while disconnected, so it drops its cache once on return.
      await waitFor(() => heardByA === beforeRestart + 1, RECOVERY_MS);
      await eventually(() => replicaB.publish(), RECOVERY_MS);
      await waitFor(() => heardByA >= beforeRestart + 2, RECOVERY_MS);
      await sleep(200);
      expect(heardByA).toBe(beforeRestart + 2);
    });

    it('rejects fast while the server is frozen (SIGSTOP), and recovers after SIGCONT', async () => {
      expect(child?.kill('SIGSTOP')).toBe(true);
      try {
        await expectFastRejection(() => store.increment('frozen', 60_000));
        await expectFastRejection(() => store.ping());
      } finally {
        child?.kill('SIGCONT');
      }
      await eventually(() => store.increment('thawed', 60_000), RECOVERY_MS);
    });
  },
);
