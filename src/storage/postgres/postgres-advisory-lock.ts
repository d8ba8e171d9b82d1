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

/**
 * D24 across replicas: a session-level pg_advisory_lock on a connection held for the whole
 * sync. The connections come from their own small pool, so holders never starve queries, and
 * an in-process mutex in front means one process waits on at most one connection per provider.
 * If the session dies the server frees the lock; a failed unlock destroys the session for the
 * same reason.
 */
export class AdvisoryProviderLock implements ProviderLock {
  readonly #pool: pg.Pool;
  readonly #local = new KeyedMutex();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  withLock<T>(provider: ProviderName, fn: () => Promise<T>): Promise<T> {
    return this.#local.run(provider, async () => {
      const key = [LOCK_NAMESPACE, providerLockKey(provider)];
      const client = await this.#pool.connect();
      // A checked-out pg client with no 'error' listener turns a dropped connection into an
      // uncaught exception that ends the process. The server frees the lock with the session;
      // the failed unlock below then destroys the client.
      const onError = () => undefined;
      client.on('error', onError);
      const release = (error?: Error) => {
        client.off('error', onError);
        client.release(error);
      };
      try {
        await client.query('select pg_advisory_lock($1::int4, $2::int4)', key);
      } catch (error) {
        release(asError(error));
        throw error;
      }
      try {
        return await fn();
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
