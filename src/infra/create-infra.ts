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
  bus: InvalidationBus;
  /** Closes both; every one is closed even when another fails, then the first failure rejects. */
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
    /** Of those, most created by requests without a valid key (MemoryCounterStore). */
    readonly maxMemoryUntrustedCounters?: number;
    /** Redis connection and subscription failures, per /health component (counters, bus). */
    readonly watch?: { readonly counters: ComponentWatch; readonly bus: ComponentWatch };
  } = {},
): Infra {
  const useRedis = redisUrl !== undefined && redisUrl !== '';
  const counters: CounterStore = useRedis
    ? new RedisCounterStore(redisUrl, options.watch ? { watch: options.watch.counters } : {})
    : new MemoryCounterStore({
        ...(options.maxMemoryCounters !== undefined && { maxKeys: options.maxMemoryCounters }),
        ...(options.maxMemoryUntrustedCounters !== undefined && {
          maxUntrustedKeys: options.maxMemoryUntrustedCounters,
        }),
      });
  const bus: InvalidationBus = useRedis
    ? new RedisInvalidationBus(redisUrl, options.watch ? { watch: options.watch.bus } : {})
    : new MemoryInvalidationBus();
  return {
    counters,
    bus,
    async close() {
      const results = await Promise.allSettled([counters.close(), bus.close()]);
      for (const result of results) {
        if (result.status === 'rejected') throw result.reason;
      }
    },
  };
}
