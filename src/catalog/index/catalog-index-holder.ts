// Holds the current CatalogIndex and replaces it, whole, when the committed catalogue version
// changes. Readers take `current` (a plain field read, never a wait once the first index exists);
// everything that talks to the database happens here, in the background:
//   - refresh(): after a sync this process committed, and on every invalidation message;
//   - a poll of the version (one cheap row) every `pollIntervalMs`, so a sync committed by
//     another process (a CLI beside a SQLite server, a replica whose Redis message was lost)
//     is noticed within about a second without any message (issue 15 item 1).
// While the database is down or frozen the last index keeps answering; a failed load leaves it
// in place and the next poll tries again. A background check gives up after `checkTimeoutMs`
// (a frozen connection answers nothing, not even an error), so a stuck check never stops the
// next one; reads never wait for any check (only for the very first index, at start).
import type { CatalogScan } from '../catalogues.js';
import { CatalogIndex } from './catalog-index.js';
import { IndexRows } from './index-rows.js';

/** What the holder reads: the store satisfies it. */
export interface CatalogIndexSource {
  catalogVersion(): Promise<number>;
  scanCatalog<T>(consume: (scan: CatalogScan) => Promise<T>): Promise<T>;
}

export interface CatalogIndexHolderOptions {
  /** Period of the background version check, ms; 0 turns it off. Default 1,000. */
  readonly pollIntervalMs?: number;
  /**
   * Longest a background check (the version read, and the snapshot read when it changed) may
   * take before it counts as failed, ms. Default 15,000.
   */
  readonly checkTimeoutMs?: number;
  /** Told once per change between "loads work" and "loads fail". */
  readonly log?: {
    error(obj: unknown, msg: string): void;
    info(obj: unknown, msg: string): void;
  };
}

export const DEFAULT_VERSION_POLL_MS = 1_000;
export const DEFAULT_CHECK_TIMEOUT_MS = 15_000;

/** A background check that did not finish in time (the database is frozen or very slow). */
export class CatalogCheckTimeoutError extends Error {
  override readonly name = 'CatalogCheckTimeoutError';
  constructor(timeoutMs: number) {
    super(`the catalogue check did not finish within ${timeoutMs} ms`);
  }
}

/** What the holder knows about its source, for /health. */
export interface CatalogIndexStatus {
  /** Version and size of the index being served, or undefined before the first one. */
  readonly version: number | undefined;
  readonly records: number;
  /** When the index being served was built (epoch ms), or undefined. */
  readonly builtAt: number | undefined;
  /** Whether the last check of the store failed (the last index is being served). */
  readonly failing: boolean;
  /** Whether a check of the store is under way (reads never wait for it). */
  readonly checking: boolean;
}

export class CatalogIndexHolder {
  readonly #source: CatalogIndexSource;
  readonly #options: CatalogIndexHolderOptions;
  #current: CatalogIndex | undefined;
  #first: Promise<CatalogIndex> | undefined;
  #loading: Promise<CatalogIndex> | undefined;
  #queued: Promise<CatalogIndex> | undefined;
  #polling = false;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;
  #builtAt: number | undefined;
  readonly #listeners = new Set<(index: CatalogIndex) => void>();

  constructor(source: CatalogIndexSource, options: CatalogIndexHolderOptions = {}) {
    this.#source = source;
    this.#options = options;
  }

  /** The index readers use now; undefined only before the first load finished. */
  get current(): CatalogIndex | undefined {
    return this.#current;
  }

  /** The index served and whether the store answered the last check (for /health). */
  status(): CatalogIndexStatus {
    return {
      version: this.#current?.version,
      records: this.#current?.size ?? 0,
      builtAt: this.#builtAt,
      failing: this.#failing,
      checking: this.#loading !== undefined,
    };
  }

  /** The current index, waiting for the first load only (never for a refresh). */
  ready(): Promise<CatalogIndex> {
    if (this.#current !== undefined) return Promise.resolve(this.#current);
    this.#first ??= this.refresh().finally(() => {
      this.#first = undefined;
    });
    return this.#first;
  }

  /** Loads the first index and starts the background version check. */
  async start(): Promise<CatalogIndex> {
    const index = await this.ready();
    const interval = this.#options.pollIntervalMs ?? DEFAULT_VERSION_POLL_MS;
    if (interval > 0 && this.#timer === undefined) {
      this.#timer = setInterval(() => this.#poll(), interval);
      // The poll alone must never keep the process alive.
      this.#timer.unref();
    }
    return index;
  }

  /** Stops the background check; the current index stays readable. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Called with each new index, after it became current. Returns an unsubscribe function. */
  onSwap(listener: (index: CatalogIndex) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Makes the index reflect every version committed before this call: resolves with an index at
   * least that new, or rejects when it could not be read (the previous index stays). Calls made
   * while a load runs share one more load after it, since that load may predate their commit.
   */
  refresh(): Promise<CatalogIndex> {
    if (this.#loading === undefined) {
      this.#loading = this.#timed(this.#load()).finally(() => {
        this.#loading = undefined;
      });
      return this.#loading;
    }
    this.#queued ??= this.#loading
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.refresh();
      });
    return this.#queued;
  }

  /**
   * Gives up on a load after checkTimeoutMs. The load itself may still finish later; it then
   * installs its index only if that is newer than the one served (see #load).
   */
  #timed(load: Promise<CatalogIndex>): Promise<CatalogIndex> {
    const timeoutMs = this.#options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new CatalogCheckTimeoutError(timeoutMs);
        this.#failed(error);
        reject(error);
      }, timeoutMs);
    });
    // A load that finishes after its timeout was already reported; its failure is not news.
    load.catch(() => undefined);
    return Promise.race([load, timedOut]).finally(() => clearTimeout(timer));
  }

  async #load(): Promise<CatalogIndex> {
    try {
      const current = this.#current;
      if (current !== undefined && (await this.#source.catalogVersion()) === current.version) {
        this.#recovered();
        return current;
      }
      const loadStarted = performance.now();
      // The pages are interned as they arrive (only the index's copy of a record outlives its
      // page); the build proper runs after the snapshot ended, so it holds no connection.
      const rows = await this.#source.scanCatalog((scan) => IndexRows.read(scan));
      const started = performance.now();
      const index = CatalogIndex.build(rows);
      const finished = performance.now();
      const latest = this.#current;
      // Loads never overlap, but a newer index must not be replaced by an older snapshot.
      if (latest !== undefined && latest.version > index.version) return latest;
      this.#current = index;
      this.#builtAt = Date.now();
      this.#recovered();
      this.#options.log?.info(
        {
          version: index.version,
          records: index.size,
          // The index's own work (interning the pages, then the build), as before the scan
          // was paged; load_ms adds the database's reads.
          build_ms: Math.round(rows.addMs + finished - started),
          load_ms: Math.round(finished - loadStarted),
        },
        'catalogue index built',
      );
      for (const listener of this.#listeners) listener(index);
      return index;
    } catch (error) {
      this.#failed(error);
      throw error;
    }
  }

  #failed(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#options.log?.error(
      { err: error },
      'could not read the catalogue; serving the last index',
    );
  }

  #recovered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#options.log?.info({}, 'catalogue readable again');
  }

  /** One background check at a time: a frozen database must not pile checks up. */
  #poll(): void {
    if (this.#polling || this.#loading !== undefined) return;
    this.#polling = true;
    this.refresh()
      .catch(() => undefined)
      .finally(() => {
        this.#polling = false;
      });
  }
}
