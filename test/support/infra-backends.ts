/**
 * Backend selection for the infra contract suites (test/infra/*.contract.test.ts): each suite is
 * written once and looped over these backends, kysely-style.
 *
 * Redis is used at TEST_REDIS_URL (default redis://127.0.0.1:6379). When it is unreachable the
 * redis variant is skipped, with the reason in the suite's name; when CI=true it fails instead,
 * because a CI run that silently skipped a backend would prove nothing about it.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import type { CounterStore } from '../../src/infra/counter-store.js';
import type { InvalidationBus } from '../../src/infra/invalidation-bus.js';
import { MemoryCounterStore } from '../../src/infra/memory/memory-counter-store.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import { RedisCounterStore } from '../../src/infra/redis/redis-counter-store.js';
import { RedisInvalidationBus } from '../../src/infra/redis/redis-invalidation-bus.js';

export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
export const IS_CI = process.env['CI'] === 'true';

/** Unique to this test process, so parallel runs (other engineers, CI) never share keys. */
const RUN_ID = `${process.pid}-${randomUUID().slice(0, 8)}`;
export const TEST_KEY_PREFIX = `cloudprice-test:${RUN_ID}:`;
export const TEST_CHANNEL = `cloudprice-test:${RUN_ID}:catalog-invalidated`;

export interface InfraBackend<T> {
  name: 'memory' | 'redis';
  /** Why this backend cannot run here, or undefined when it can. */
  unavailable: string | undefined;
  /**
   * Whether two instances from create() share state, like two replicas on one Redis. Memory
   * instances are independent by design (one process each).
   */
  sharedAcrossInstances: boolean;
  create(): T;
  /** Removes whatever this run left in the backend. */
  cleanup(): Promise<void>;
}

/** Undefined when Redis at `url` answers PING within 2 s, else the reason it does not. */
export async function redisUnavailableReason(url: string): Promise<string | undefined> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  });
  // The socket error (ECONNREFUSED...) says more than the rejection ("Connection is closed").
  let socketError: Error | undefined;
  probe.on('error', (error: Error) => {
    socketError ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
    return undefined;
  } catch (error) {
    const cause = socketError ?? error;
    return `Redis unreachable at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`;
  } finally {
    probe.disconnect();
  }
}

/** Deletes every key of this run (SCAN + UNLINK; counters also expire on their own). */
async function deleteTestKeys(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${TEST_KEY_PREFIX}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function counterStoreBackends(): Promise<InfraBackend<CounterStore>[]> {
  const redisReason = await redisUnavailableReason(TEST_REDIS_URL);
  return [
    {
      name: 'memory',
      unavailable: undefined,
      sharedAcrossInstances: false,
      create: () => new MemoryCounterStore(),
      cleanup: () => Promise.resolve(),
    },
    {
      name: 'redis',
      unavailable: redisReason,
      sharedAcrossInstances: true,
      create: () => new RedisCounterStore(TEST_REDIS_URL, { keyPrefix: TEST_KEY_PREFIX }),
      cleanup: () =>
        redisReason === undefined ? deleteTestKeys(TEST_REDIS_URL) : Promise.resolve(),
    },
  ];
}

export async function invalidationBusBackends(): Promise<InfraBackend<InvalidationBus>[]> {
  const redisReason = await redisUnavailableReason(TEST_REDIS_URL);
  return [
    {
      name: 'memory',
      unavailable: undefined,
      sharedAcrossInstances: false,
      create: () => new MemoryInvalidationBus(),
      cleanup: () => Promise.resolve(),
    },
    {
      name: 'redis',
      unavailable: redisReason,
      sharedAcrossInstances: true,
      // Pub/sub leaves no keys behind: nothing to clean beyond closing the instances.
      create: () => new RedisInvalidationBus(TEST_REDIS_URL, { channel: TEST_CHANNEL }),
      cleanup: () => Promise.resolve(),
    },
  ];
}

/**
 * `describe(title [backend], body)` when the backend is available; otherwise a skipped suite
 * whose name gives the reason, or, when CI=true, a suite with one failing test that says why.
 */
export function describeBackend(
  title: string,
  backend: { name: string; unavailable: string | undefined },
  body: () => void,
): void {
  const name = `${title} [${backend.name}]`;
  const reason = backend.unavailable;
  if (reason === undefined) {
    describe(name, body);
  } else if (IS_CI) {
    describe(name, () => {
      it('has its backend available (required when CI=true)', () => {
        throw new Error(reason);
      });
    });
  } else {
    describe.skip(`${name} — SKIPPED: ${reason}`, body);
  }
}
