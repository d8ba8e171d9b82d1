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

export interface MemoryCounterStoreOptions {
  /** Sweep period (ms), default {@link DEFAULT_SWEEP_INTERVAL_MS}. */
  sweepIntervalMs?: number;
}

export class MemoryCounterStore implements CounterStore {
  readonly #counters = new Map<string, Counter>();
  readonly #sweepTimer: NodeJS.Timeout;
  #closed = false;

  constructor(options: MemoryCounterStoreOptions = {}) {
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

  #sweep(): void {
    const now = Date.now();
    // Deleting the current entry while iterating a Map is safe and visits every other entry.
    for (const [key, counter] of this.#counters) {
      if (counter.expiresAt <= now) this.#counters.delete(key);
    }
  }
}
