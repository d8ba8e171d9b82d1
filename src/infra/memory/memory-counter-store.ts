/**
 * CounterStore for one process (no Redis configured). Fixed windows are encoded in the keys by
 * the caller; this store only counts and expires. It is on the path of every request, so
 * `increment` is O(1) and allocates nothing but its result promise once a key exists.
 */
import type { CounterStore } from '../counter-store.js';
import { invalidTtlError } from '../ttl.js';

/**
 * Where a key's counter lives. A rate-limit key (`rl:<scope>:<window>:<client>`, from
 * src/http/rate-limit.ts) is split after its window into a prefix (a handful per minute, each
 * held once) and a client part. The split is found by that structure, not by the last ':', because
 * IPv6 clients (`2001:db8:1:2::/64`) and route scopes (`/webhooks/:id`) hold colons too. The client
 * is kept compactly: a dotted IPv4 address as its 32-bit number (a small integer to V8, nothing
 * allocated), a canonical IPv6 /64 as a 4-character string of its four 16-bit groups (24 bytes
 * instead of the 30-60 byte key); anything else (another token, a key of another shape) stays
 * the whole key. Each (prefix, client) maps to a slot in typed arrays, so a counter costs its Map
 * entry, its client key and 12 bytes (bench/counter-memory.ts, docs/performance.md).
 */
type ClientKey = string | number;

/**
 * Where the client part of a rate-limit key starts: just after the first `:<digits>:` that
 * follows `rl:` (the window; a scope is a route URL, whose `:` starts a parameter name, never
 * digits followed by `:`). 0 when `key` is not of that shape.
 */
export function clientStart(key: string): number {
  if (!key.startsWith('rl:')) return 0;
  for (let colon = key.indexOf(':', 3); colon >= 0; colon = key.indexOf(':', colon + 1)) {
    let i = colon + 1;
    while (i < key.length && isDigit(key.charCodeAt(i))) i++;
    if (i > colon + 1 && i < key.length && key.charCodeAt(i) === 58) return i + 1;
  }
  return 0;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The 32-bit number of the dotted-quad IPv4 address `text.slice(start)` without leading zeros,
 * or undefined.
 */
export function ipv4Number(text: string, start = 0): number | undefined {
  const length = text.length - start;
  if (length < 7 || length > 15) return undefined;
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = start; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part > 255) return undefined;
      value = value * 256 + part;
      parts += 1;
      part = 0;
      digits = 0;
    } else if (isDigit(c)) {
      // A leading zero would make two texts one number ("1.2.3.04" and "1.2.3.4").
      if (digits === 1 && part === 0) return undefined;
      part = part * 10 + (c - 48);
      digits += 1;
      if (digits > 3) return undefined;
    } else {
      return undefined;
    }
  }
  return parts === 4 ? value : undefined;
}

const PREFIX_64 = '::/64';

/**
 * The four 16-bit groups of the IPv6 /64 `text.slice(start)` as a 4-character string, when it is
 * written the way clientKey (src/http/client-address.ts) writes one: four lower-case hex groups
 * without leading zeros, then `::/64`. Any other spelling is undefined, so that two texts never
 * share one string.
 */
export function ipv6Prefix64(text: string, start = 0): string | undefined {
  const end = text.length - PREFIX_64.length;
  if (end - start < 7 || end - start > 19 || !text.endsWith(PREFIX_64)) return undefined;
  const groups = [0, 0, 0, 0];
  let count = 0;
  let group = 0;
  let digits = 0;
  // text[end] is the first ':' of '::/64', which ends the fourth group.
  for (let i = start; i <= end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      if (digits === 0 || count === 4) return undefined;
      groups[count++] = group;
      group = 0;
      digits = 0;
      continue;
    }
    const digit = isDigit(c) ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    // A leading zero or a fifth digit would give one group two spellings.
    if (digit < 0 || (digits === 1 && group === 0) || digits === 4) return undefined;
    group = group * 16 + digit;
    digits += 1;
  }
  return count === 4 ? String.fromCharCode(...groups) : undefined;
}

/** The client part of `key` (from `start`) as its Map key; see ClientKey. */
function compactClient(key: string, start: number): ClientKey {
  if (start === 0) return key;
  const address = ipv4Number(key, start);
  // As a signed 32-bit integer (one to one with the address): a small integer to V8, where
  // numbers from 2^31 (addresses from 128.0.0.0, half of them) would each be a heap number.
  if (address !== undefined) return address | 0;
  // Anything not packed is kept as the whole key: a slice of it would keep the key alive
  // anyway (V8 slices point into their parent string).
  return ipv6Prefix64(key, start) ?? key;
}

/** How often expired counters are swept out of memory by default (ms). */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

/**
 * Most counters held by default. Clients choose the keys (one per address and window), so the
 * table is bounded: about 44 bytes a counter for IPv4 clients and 69 for IPv6 ones (see
 * ClientKey), so 250,000 is at most about 17 MB (bench/counter-memory.ts, docs/performance.md).
 */
export const DEFAULT_MAX_KEYS = 250_000;

/**
 * Most counters created by requests without a valid key, held besides DEFAULT_MAX_KEYS (issue
 * 35): wrong-key requests from ever new IPv6 /64s once filled the one table until new clients
 * with a valid key got 503. They now create counters only in this room, so a flood of them
 * fills it and nothing else (about 7 MB at IPv6 sizes). Full, it refuses rather than evicts:
 * eviction would let a flood reset a key guesser's count.
 */
export const DEFAULT_MAX_UNTRUSTED_KEYS = 100_000;

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
  /** Most held besides them for untrusted increments, default {@link DEFAULT_MAX_UNTRUSTED_KEYS}. */
  maxUntrustedKeys?: number;
}

export class MemoryCounterStore implements CounterStore {
  /** prefix -> client -> slot. */
  readonly #prefixes = new Map<string, Map<ClientKey, number>>();
  /** Per slot: the count, and when the counter is gone (epoch ms: first increment + ttlMs). */
  #counts = new Uint32Array(1024);
  #expires = new Float64Array(1024);
  /** Per slot: 1 when an untrusted increment created it and no trusted one has counted since. */
  #untrusted = new Uint8Array(1024);
  /** Slots never used yet start at #used; freed ones are stacked in #free. */
  #used = 0;
  #free = new Int32Array(1024);
  #freeCount = 0;
  #size = 0;
  /** Of #size, the slots marked in #untrusted. */
  #untrustedSize = 0;
  readonly #sweepTimer: NodeJS.Timeout;
  readonly #maxKeys: number;
  readonly #maxUntrustedKeys: number;
  readonly #fullError: CounterStoreFullError;
  readonly #untrustedFullError: CounterStoreFullError;
  /** When a full table last swept on demand (epoch ms): at most once a second. */
  #lastFullSweep = 0;
  #closed = false;

  constructor(options: MemoryCounterStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.#maxUntrustedKeys = options.maxUntrustedKeys ?? DEFAULT_MAX_UNTRUSTED_KEYS;
    this.#fullError = new CounterStoreFullError(this.#maxKeys);
    this.#untrustedFullError = new CounterStoreFullError(this.#maxUntrustedKeys);
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
    return this.#size;
  }

  /**
   * `untrusted` (a request without a valid key): a new counter is made in the untrusted room,
   * never in the main one; an existing counter is the same count whoever increments it. A
   * trusted increment of a counter in the untrusted room moves it to the main one.
   */
  increment(key: string, ttlMs: number, untrusted = false): Promise<number> {
    if (this.#closed) return Promise.reject(new Error('MemoryCounterStore is closed'));
    const invalid = invalidTtlError(ttlMs);
    if (invalid !== undefined) return Promise.reject(invalid);
    const now = Date.now();
    const start = clientStart(key);
    // The prefix is held once per map; a new prefix (a new window) is rare.
    const prefix = key.slice(0, start);
    const client: ClientKey = compactClient(key, start);
    let clients = this.#prefixes.get(prefix);
    const slot = clients?.get(client);
    if (slot === undefined) {
      if (!this.#hasRoom(now, untrusted)) {
        // Refused, not let through uncounted: the caller answers 503 (fail closed, D11).
        // Clients that already hold a counter keep being counted exactly.
        // One error object for every refusal: under a flood most requests end here, and an
        // Error per request would capture a stack trace each time.
        return Promise.reject(untrusted ? this.#untrustedFullError : this.#fullError);
      }
      // Read again: a sweep just made for room may have dropped this prefix's emptied map.
      clients = this.#prefixes.get(prefix);
      if (clients === undefined) {
        clients = new Map();
        this.#prefixes.set(prefix, clients);
      }
      const fresh = this.#allocate();
      this.#counts[fresh] = 1;
      this.#expires[fresh] = now + ttlMs;
      clients.set(client, fresh);
      this.#size += 1;
      if (untrusted) {
        this.#untrusted[fresh] = 1;
        this.#untrustedSize += 1;
      }
      return Promise.resolve(1);
    }
    if (!untrusted && this.#untrusted[slot] === 1) {
      // A valid client takes over a counter made without a valid key: it needs main room.
      if (!this.#hasRoom(now, false)) return Promise.reject(this.#fullError);
      // A sweep made for that room drops this counter if it had expired: start again as a new
      // key (no second sweep runs within the second, so this recurses once at most).
      if (this.#prefixes.get(prefix)?.get(client) !== slot) {
        return this.increment(key, ttlMs, untrusted);
      }
      this.#untrusted[slot] = 0;
      this.#untrustedSize -= 1;
    }
    if (this.#expires[slot]! <= now) {
      this.#counts[slot] = 1;
      this.#expires[slot] = now + ttlMs;
      return Promise.resolve(1);
    }
    const count = this.#counts[slot]! + 1;
    this.#counts[slot] = count;
    return Promise.resolve(count);
  }

  /** A free slot, growing the arrays (by half) when every one is in use. */
  #allocate(): number {
    if (this.#freeCount > 0) return this.#free[--this.#freeCount]!;
    if (this.#used === this.#counts.length) {
      const capacity = Math.ceil(this.#counts.length * 1.5);
      const counts = new Uint32Array(capacity);
      counts.set(this.#counts);
      const expires = new Float64Array(capacity);
      expires.set(this.#expires);
      const untrusted = new Uint8Array(capacity);
      untrusted.set(this.#untrusted);
      this.#counts = counts;
      this.#expires = expires;
      this.#untrusted = untrusted;
    }
    return this.#used++;
  }

  #release(slot: number): void {
    if (this.#untrusted[slot] === 1) {
      this.#untrusted[slot] = 0;
      this.#untrustedSize -= 1;
    }
    if (this.#freeCount === this.#free.length) {
      const free = new Int32Array(Math.max(1024, Math.ceil(this.#free.length * 1.5)));
      free.set(this.#free);
      this.#free = free;
    }
    this.#free[this.#freeCount++] = slot;
  }

  ping(): Promise<void> {
    return this.#closed
      ? Promise.reject(new Error('MemoryCounterStore is closed'))
      : Promise.resolve();
  }

  close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    this.#prefixes.clear();
    this.#size = 0;
    this.#untrustedSize = 0;
    this.#untrusted.fill(0);
    this.#used = 0;
    this.#freeCount = 0;
    return Promise.resolve();
  }

  /**
   * Whether one more counter fits in the room `untrusted` names; a full room drops the expired
   * counters (at most once a second) first.
   */
  #hasRoom(now: number, untrusted: boolean): boolean {
    if (this.#roomLeft(untrusted)) return true;
    if (now - this.#lastFullSweep < 1_000) return false;
    this.#lastFullSweep = now;
    this.#sweep();
    return this.#roomLeft(untrusted);
  }

  #roomLeft(untrusted: boolean): boolean {
    return untrusted
      ? this.#untrustedSize < this.#maxUntrustedKeys
      : this.#size - this.#untrustedSize < this.#maxKeys;
  }

  #sweep(): void {
    const now = Date.now();
    // Deleting the current entry while iterating a Map is safe and visits every other entry.
    for (const [prefix, clients] of this.#prefixes) {
      for (const [client, slot] of clients) {
        if (this.#expires[slot]! <= now) {
          clients.delete(client);
          this.#release(slot);
          this.#size -= 1;
        }
      }
      if (clients.size === 0) this.#prefixes.delete(prefix);
    }
  }
}
