import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ProviderName } from '../../catalog/model.js';
import type { CatalogDatabase } from '../catalog-schema.js';
import type { KeyedMutex } from '../keyed-mutex.js';
import type { ProviderLock } from '../kysely-catalog-store.js';

/** How long a lease lasts without renewal: a holder that died frees the lock after this. */
export const SQLITE_LOCK_LEASE_MS = 30_000;
/** How often the holder renews its lease. */
const RENEW_EVERY_MS = 5_000;
/** How often a process waiting for the lock tries again. */
const RETRY_EVERY_MS = 100;

/** Why a SQLite provider lock's `held` signal aborted. */
export class SqliteLockLostError extends Error {
  constructor(provider: ProviderName) {
    super(`the ${provider} sync lease was lost (not renewed in time, taken by another process)`);
    this.name = 'SqliteLockLostError';
  }
}

/**
 * D24 on SQLite, across processes on one database file (the server and `cloudprice sync`, or a
 * second server): a lease row per provider in sync_locks (migration 006). See docs/adr/0011.
 *
 * Taking it is one statement, an upsert that writes only when the row is absent, expired or
 * ours: SQLite runs one writing statement at a time on a file, so two processes can never both
 * see it free. The holder renews the lease while fn runs; a holder that dies (kill -9) frees the
 * lock when its lease lapses. A renewal that finds the row gone or someone else's aborts `held`,
 * and the sync stops before it commits. An in-process mutex in front keeps one process's waiters
 * off the database.
 */
export class SqliteProviderLock implements ProviderLock {
  readonly #db: () => Kysely<CatalogDatabase>;
  readonly #scope: string;
  readonly #local: KeyedMutex;

  /** `local` and `scope` are shared by every store on the same file in this process. */
  constructor(db: () => Kysely<CatalogDatabase>, local: KeyedMutex, scope: string) {
    this.#db = db;
    this.#local = local;
    this.#scope = scope;
  }

  withLock<T>(provider: ProviderName, fn: (held: AbortSignal) => Promise<T>): Promise<T> {
    return this.#local.run(`${this.#scope}\u0000${provider}`, async () => {
      const owner = randomUUID();
      while (!(await this.#take(provider, owner))) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
      }
      const lost = new AbortController();
      const renewing = setInterval(() => {
        this.#renew(provider, owner).then(
          (ours) => {
            if (!ours) lost.abort(new SqliteLockLostError(provider));
          },
          // A renewal that could not run (the database busy past its timeout) is not a loss:
          // the lease is still ours until it lapses, and the next renewal tries again.
          () => undefined,
        );
      }, RENEW_EVERY_MS);
      renewing.unref();
      try {
        return await fn(lost.signal);
      } finally {
        clearInterval(renewing);
        await this.#db()
          .deleteFrom('sync_locks')
          .where('provider', '=', provider)
          .where('owner', '=', owner)
          .execute()
          // A release that fails leaves a lease that lapses on its own.
          .catch(() => undefined);
      }
    });
  }

  /** One atomic statement: the row is written (and returned) only if it is free or lapsed. */
  async #take(provider: ProviderName, owner: string): Promise<boolean> {
    const now = Date.now();
    const taken = await this.#db()
      .insertInto('sync_locks')
      .values({ provider, owner, expires_at: now + SQLITE_LOCK_LEASE_MS })
      .onConflict((oc) =>
        oc
          .column('provider')
          .doUpdateSet({ owner, expires_at: now + SQLITE_LOCK_LEASE_MS })
          .where('sync_locks.expires_at', '<=', now),
      )
      .returning('owner')
      .executeTakeFirst();
    return taken?.owner === owner;
  }

  async #renew(provider: ProviderName, owner: string): Promise<boolean> {
    const renewed = await this.#db()
      .updateTable('sync_locks')
      .set({ expires_at: Date.now() + SQLITE_LOCK_LEASE_MS })
      .where('provider', '=', provider)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(renewed.numUpdatedRows) === 1;
  }
}
