/**
 * InvalidationBus over Redis pub/sub, so a sync on one replica drops every replica's /instances
 * cache (D20). A subscribed connection can run nothing but (un)subscribe commands, hence two
 * connections: one to PUBLISH, one dedicated subscriber.
 *
 * Safety rules (a stale cache is the failure to avoid; an extra cache drop is cheap):
 * - publish() calls this process's listeners directly first, so the local cache is dropped even
 *   when Redis is down; it then rejects, so the caller knows other replicas may not have heard.
 * - Whenever the subscriber comes back after losing its connection, listeners are called once:
 *   a message may have been published while we were not listening.
 * - Our own messages carry this instance's id and are ignored on receipt, so a publish calls the
 *   local listeners exactly once.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { unwatched, type ComponentWatch } from '../component-watch.js';
import type { InvalidationBus } from '../invalidation-bus.js';
import { ListenerSet } from '../listener-set.js';
import { closeRedisConnection, createRedisConnection, whenRedisReady } from './redis-connection.js';

/** Channel every replica of a deployment publishes and listens on. */
export const CATALOG_INVALIDATED_CHANNEL = 'cloudprice:catalog-invalidated';

export interface RedisInvalidationBusOptions {
  /** Pub/sub channel (default {@link CATALOG_INVALIDATED_CHANNEL}); tests use a unique one. */
  channel?: string;
  /**
   * Told about failures nobody awaits: a listener that threw on a message from another replica,
   * or a failed (re)subscription (which is retried on a fresh connection). Default: ignored.
   */
  onError?: (error: unknown) => void;
  /**
   * Told when a connection or the subscription fails and when it works again (sources
   * `bus-publisher`, `bus-subscriber`, `subscription`): logged once per change, shown in /health.
   */
  watch?: ComponentWatch;
}

export class RedisInvalidationBus implements InvalidationBus {
  readonly #listeners = new ListenerSet();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #onError: (error: unknown) => void;
  readonly #watch: ComponentWatch;
  /** Payload of our own messages, to recognise them when they come back. */
  readonly #instanceId = randomUUID();
  /** True once a subscription has been confirmed; later confirmations follow a lost connection. */
  #subscribedBefore = false;
  #closed = false;

  /** Connects and subscribes in the background; retries on its own until close(). */
  constructor(url: string, options: RedisInvalidationBusOptions = {}) {
    this.#channel = options.channel ?? CATALOG_INVALIDATED_CHANNEL;
    this.#onError = options.onError ?? (() => undefined);
    this.#watch = options.watch ?? unwatched;
    this.#publisher = createRedisConnection(url, 'bus-publisher', this.#watch);
    this.#subscriber = createRedisConnection(url, 'bus-subscriber', this.#watch);
    this.#subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.#channel && payload !== this.#instanceId) this.#notifyUnawaited();
    });
    // 'ready' comes on the first connection and after every reconnection, each time on a fresh
    // connection that is not subscribed to anything yet.
    this.#subscriber.on('ready', () => void this.#subscribe());
  }

  async publish(): Promise<void> {
    const listenerFailure = this.#listeners.notify();
    // Other replicas are told even when a local listener failed.
    await whenRedisReady(this.#publisher);
    await this.#publisher.publish(this.#channel, this.#instanceId);
    if (listenerFailure !== undefined) throw listenerFailure;
  }

  subscribe(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await Promise.all([
      closeRedisConnection(this.#publisher),
      closeRedisConnection(this.#subscriber),
    ]);
  }

  async #subscribe(): Promise<void> {
    try {
      await this.#subscriber.subscribe(this.#channel);
    } catch (error) {
      if (this.#closed) return;
      this.#onError(error);
      this.#watch.failed('subscription', error);
      // A connection that is ready but cannot subscribe is not usable: start a fresh one, whose
      // 'ready' brings us back here.
      this.#subscriber.disconnect(true);
      return;
    }
    // Only now is every later message guaranteed to reach us; anything published before this
    // point while we were disconnected may be lost, so drop the caches once.
    this.#watch.recovered('subscription');
    if (this.#subscribedBefore) this.#notifyUnawaited();
    this.#subscribedBefore = true;
  }

  #notifyUnawaited(): void {
    const failure = this.#listeners.notify();
    if (failure !== undefined) this.#onError(failure);
  }
}
