/**
 * Picks the infrastructure backends: Redis when a URL is configured (several replicas counting and
 * invalidating together), memory otherwise (one process). Called once by the composition root.
 */
import type { ComponentWatch } from './component-watch.js';
import type { CounterStore } from './counter-store.js';
import type { InvalidationBus } from './invalidation-bus.js';
import { MemoryCounterStore } from './memory/memory-counter-store.js';
import { MemoryInvalidationBus } from './memory/memory-invalidation-bus.js';
import { RedisCounterStore } from './redis/redis-counter-store.js';
import { RedisInvalidationBus } from './redis/redis-invalidation-bus.js';

export interface Infra {
  counters: CounterStore;
  /**
   * Counts requests without a valid key (issue 35). With Redis, the same store as `counters`
   * (Redis bounds its own memory, and a guesser is counted across replicas); in memory, a table
   * of its own with its own bound, so a flood of wrong keys fills that table only and never
   * refuses a client with a valid key.
   */
  authFailureCounters: CounterStore;
  bus: InvalidationBus;
  /** Closes them all; every one is closed even when another fails, then the first failure rejects. */
  close(): Promise<void>;
}

/**
 * `redisUrl` (e.g. `redis://host:6379/0`), or undefined / empty for the in-memory backends.
 * Returns at once: Redis connections are opened in the background and never throw here.
 */
export function createInfra(
  redisUrl: string | undefined,
  options: {
    readonly maxMemoryCounters?: number;
    readonly maxMemoryAuthFailureCounters?: number;
    /** Redis connection and subscription failures, per /health component (counters, bus). */
    readonly watch?: { readonly counters: ComponentWatch; readonly bus: ComponentWatch };
  } = {},
): Infra {
  const useRedis = redisUrl !== undefined && redisUrl !== '';
  const counters: CounterStore = useRedis
    ? new RedisCounterStore(redisUrl, options.watch ? { watch: options.watch.counters } : {})
    : new MemoryCounterStore(
        options.maxMemoryCounters === undefined ? {} : { maxKeys: options.maxMemoryCounters },
      );
  const authFailureCounters: CounterStore = useRedis
    ? counters
    : new MemoryCounterStore(
        options.maxMemoryAuthFailureCounters === undefined
          ? {}
          : { maxKeys: options.maxMemoryAuthFailureCounters },
      );
  const bus: InvalidationBus = useRedis
    ? new RedisInvalidationBus(redisUrl, options.watch ? { watch: options.watch.bus } : {})
    : new MemoryInvalidationBus();
  const stores = new Set([counters, authFailureCounters]);
  return {
    counters,
    authFailureCounters,
    bus,
    async close() {
      const results = await Promise.allSettled([
        ...[...stores].map((store) => store.close()),
        bus.close(),
      ]);
      for (const result of results) {
        if (result.status === 'rejected') throw result.reason;
      }
    },
  };
}
