/** createInfra picks memory without a URL and Redis with one; both halves work and close. */
import { expect, it } from 'vitest';
import { createInfra } from '../../src/infra/create-infra.js';
import { MemoryCounterStore } from '../../src/infra/memory/memory-counter-store.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import { RedisCounterStore } from '../../src/infra/redis/redis-counter-store.js';
import { RedisInvalidationBus } from '../../src/infra/redis/redis-invalidation-bus.js';
import {
  describeBackend,
  redisUnavailableReason,
  TEST_REDIS_URL,
} from '../support/infra-backends.js';
import { eventually } from '../support/wait.js';

it.each([undefined, ''])('uses the memory backends when the Redis URL is %j', async (url) => {
  const infra = createInfra(url);
  expect(infra.counters).toBeInstanceOf(MemoryCounterStore);
  expect(infra.bus).toBeInstanceOf(MemoryInvalidationBus);
  await infra.close();
});

describeBackend(
  'createInfra with a Redis URL',
  { name: 'redis', unavailable: await redisUnavailableReason(TEST_REDIS_URL) },
  () => {
    it('uses the Redis backends, which answer', async () => {
      const infra = createInfra(TEST_REDIS_URL);
      try {
        expect(infra.counters).toBeInstanceOf(RedisCounterStore);
        expect(infra.bus).toBeInstanceOf(RedisInvalidationBus);
        await eventually(() => infra.counters.ping(), 5_000);
      } finally {
        await infra.close();
      }
    });
  },
);
