/**
 * CounterStore on Redis: every replica counts in the same keys, so a client's limit holds across
 * the whole deployment (D8). Fails fast and closed (D11): see redis-connection.ts.
 */
import type { Redis, Result } from 'ioredis';
import type { CounterStore } from '../counter-store.js';
import { invalidTtlError } from '../ttl.js';
import type { ComponentWatch } from '../component-watch.js';
import { closeRedisConnection, createRedisConnection, whenRedisReady } from './redis-connection.js';

/**
 * INCR and, when the key has no expiry yet, PEXPIRE, in one atomic step: two replicas can never
 * both see count 1, and a key can never be left without expiry (which would lock a client out for
 * good). Normally only the first increment sets the expiry; the PTTL check also repairs a key
 * that somehow lost its expiry. Returns the new count.
 */
const INCREMENT_WITH_TTL_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`;

/** Name of the script command on the client; ioredis sends it with EVALSHA (EVAL on NOSCRIPT). */
const INCREMENT_COMMAND = 'cloudpriceIncrementWithTtl';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** Defined by RedisCounterStore: see INCREMENT_WITH_TTL_LUA. */
    cloudpriceIncrementWithTtl(key: string, ttlMs: number): Result<unknown, Context>;
  }
}

/** Default namespace of counter keys, so they cannot collide with other data in the database. */
export const DEFAULT_COUNTER_KEY_PREFIX = 'cloudprice:counter:';

export interface RedisCounterStoreOptions {
  /** Prepended to every key (default {@link DEFAULT_COUNTER_KEY_PREFIX}); tests use a unique one. */
  keyPrefix?: string;
  /** Told when the connection fails and recovers (logged once per change, shown in /health). */
  watch?: ComponentWatch;
}

export class RedisCounterStore implements CounterStore {
  readonly #redis: Redis;
  readonly #keyPrefix: string;

  /** Connects to `url` in the background; increments before the first connection wait for it. */
  constructor(url: string, options: RedisCounterStoreOptions = {}) {
    this.#redis = createRedisConnection(url, 'counters', options.watch);
    this.#redis.defineCommand(INCREMENT_COMMAND, { numberOfKeys: 1, lua: INCREMENT_WITH_TTL_LUA });
    this.#keyPrefix = options.keyPrefix ?? DEFAULT_COUNTER_KEY_PREFIX;
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const invalid = invalidTtlError(ttlMs);
    if (invalid !== undefined) throw invalid;
    // Status checked first, so the common (connected) case creates no wait promise.
    if (this.#redis.status !== 'ready') await whenRedisReady(this.#redis);
    const count = await this.#redis.cloudpriceIncrementWithTtl(this.#keyPrefix + key, ttlMs);
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
      throw new Error(`Redis returned an invalid counter value: ${String(count)}`);
    }
    return count;
  }

  async ping(): Promise<void> {
    await whenRedisReady(this.#redis);
    // Typed as 'PONG' by ioredis; widened to check what actually came back.
    const reply: string = await this.#redis.ping();
    if (reply !== 'PONG') throw new Error(`Unexpected PING reply from Redis: ${reply}`);
  }

  close(): Promise<void> {
    return closeRedisConnection(this.#redis);
  }
}
