/**
 * CounterStore for one process (no Redis configured). Fixed windows are encoded in the keys by
 * the caller; this store only counts and expires. It is on the path of every request, so
 * `increment` is O(1) and allocates nothing but its result promise once a key exists.
 */
import type { CounterStore } from '../counter-store.js';
import { invalidTtlError } from '../ttl.js';

/** Mutable on purpose: an expired counter is reused in place rather than reallocated. */
interface Counter {
  count: number;
  /** Epoch ms at which the counter is gone (first increment + ttlMs). */
  expiresAt: number;
}

/** How often expired counters are swept out of memory by default (ms). */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

/**
 * Most counters held by default. Clients choose the keys (one per address and window), so the
 * table is bounded: about 100 bytes a counter, so 250,000 is about 25 MB (docs/performance.md).
 */
export const DEFAULT_MAX_KEYS = 250_000;

/** The table is full of live counters: a new key is refused, never counted nowhere. */
export class CounterStoreFullError extends Error {
  override readonly name = 'CounterStoreFullError';
  constructor(maxKeys: number) {
    super(`the counter store holds its maximum of ${maxKeys} live counters`);
  }
}

export interface MemoryCounterStoreOptions {
  /** Sweep period (ms), default {@link DEFAULT_SWEEP_INTERVAL_MS}. */
  sweepIntervalMs?: number;
  /** Most counters held, default {@link DEFAULT_MAX_KEYS}. */
  maxKeys?: number;
}

export class MemoryCounterStore implements CounterStore {
  readonly #counters = new Map<string, Counter>();
  readonly #sweepTimer: NodeJS.Timeout;
  readonly #maxKeys: number;
  /** When a full table last swept on demand (epoch ms): at most once a second. */
  #lastFullSweep = 0;
  #closed = false;

  constructor(options: MemoryCounterStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    // Expired counters are already ignored by increment; the sweep only bounds memory, so a
    // key used once (one client, one window) does not stay for ever. unref(): the timer alone
    // must never keep the process alive.
    this.#sweepTimer = setInterval(
      () => this.#sweep(),
      options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
    );
    this.#sweepTimer.unref();
  }

  /** Number of counters held, expired but not yet swept included (for tests and metrics). */
  get size(): number {
    return this.#counters.size;
  }

  increment(key: string, ttlMs: number): Promise<number> {
    if (this.#closed) return Promise.reject(new Error('MemoryCounterStore is closed'));
    const invalid = invalidTtlError(ttlMs);
    if (invalid !== undefined) return Promise.reject(invalid);
    const now = Date.now();
    const counter = this.#counters.get(key);
    if (counter === undefined) {
      if (this.#counters.size >= this.#maxKeys && !this.#madeRoom(now)) {
        // Refused, not let through uncounted: the caller answers 503 (fail closed, D11).
        // Clients that already hold a counter keep being counted exactly.
        return Promise.reject(new CounterStoreFullError(this.#maxKeys));
      }
      this.#counters.set(key, { count: 1, expiresAt: now + ttlMs });
      return Promise.resolve(1);
    }
    if (counter.expiresAt <= now) {
      counter.count = 1;
      counter.expiresAt = now + ttlMs;
      return Promise.resolve(1);
    }
    counter.count += 1;
    return Promise.resolve(counter.count);
  }

  ping(): Promise<void> {
    return this.#closed
      ? Promise.reject(new Error('MemoryCounterStore is closed'))
      : Promise.resolve();
  }

  close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    this.#counters.clear();
    return Promise.resolve();
  }

  /** A full table drops its expired counters (at most once a second); true if room was made. */
  #madeRoom(now: number): boolean {
    if (now - this.#lastFullSweep < 1_000) return false;
    this.#lastFullSweep = now;
    this.#sweep();
    return this.#counters.size < this.#maxKeys;
  }

  #sweep(): void {
    const now = Date.now();
    // Deleting the current entry while iterating a Map is safe and visits every other entry.
    for (const [key, counter] of this.#counters) {
      if (counter.expiresAt <= now) this.#counters.delete(key);
    }
  }
}
