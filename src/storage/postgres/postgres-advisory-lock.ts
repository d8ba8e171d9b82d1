import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ProviderName } from '../../catalog/model.js';
import { KeyedMutex } from '../keyed-mutex.js';
import type { ProviderLock } from '../kysely-catalog-store.js';

/** First half of the two-int advisory lock key: "clpr", so other users of locks never clash. */
const LOCK_NAMESPACE = 0x636c7072;

/** Second half: stable across processes and versions (unlike hashtext), derived from the name. */
export function providerLockKey(provider: ProviderName): number {
  return createHash('sha256')
    .update(`cloudprice:provider-sync:${provider}`)
    .digest()
    .readInt32BE(0);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Why a provider lock's `held` signal aborted (CatalogStore.withProviderLock). */
export class ProviderLockLostError extends Error {
  constructor(provider: ProviderName, cause?: unknown) {
    super(`the ${provider} sync lock was lost (its database session ended)`, { cause });
    this.name = 'ProviderLockLostError';
  }
}

/**
 * D24 across replicas: a session-level pg_advisory_lock on a connection held for the whole
 * sync. The connections come from their own small pool, so holders never starve queries, and
 * an in-process mutex in front means one process waits on at most one connection per provider.
 * If the session dies the server frees the lock, and another replica may take it at once: the
 * holder hears of it (the client's 'error' or 'end'), aborts `held`, and its sync stops and
 * rolls back rather than apply unprotected. A failed unlock destroys the session for the same
 * reason.
 */
export class AdvisoryProviderLock implements ProviderLock {
  readonly #pool: pg.Pool;
  readonly #local = new KeyedMutex();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  withLock<T>(provider: ProviderName, fn: (held: AbortSignal) => Promise<T>): Promise<T> {
    return this.#local.run(provider, async () => {
      const key = [LOCK_NAMESPACE, providerLockKey(provider)];
      const client = await this.#pool.connect();
      const lost = new AbortController();
      // A checked-out pg client with no 'error' listener turns a dropped connection into an
      // uncaught exception that ends the process. Either event means the session, and with it
      // the lock, is gone.
      const onError = (error: unknown) => lost.abort(new ProviderLockLostError(provider, error));
      const onEnd = () => lost.abort(new ProviderLockLostError(provider));
      client.on('error', onError);
      client.on('end', onEnd);
      const release = (error?: Error) => {
        client.off('error', onError);
        client.off('end', onEnd);
        client.release(error);
      };
      try {
        await client.query('select pg_advisory_lock($1::int4, $2::int4)', key);
      } catch (error) {
        release(asError(error));
        throw error;
      }
      try {
        return await fn(lost.signal);
      } finally {
        try {
          await client.query('select pg_advisory_unlock($1::int4, $2::int4)', key);
          release();
        } catch (error) {
          release(asError(error));
        }
      }
    });
  }
}
