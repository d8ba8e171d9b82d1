import { afterEach, beforeEach } from 'vitest';
import type { CatalogStore } from '../../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../../src/storage/create-catalog-store.js';
import type { CatalogStoreOptions } from '../../../src/storage/create-catalog-store.js';
import type { IsolatedDatabase, StoreBackend } from '../../support/backends.js';

export interface StoreContext {
  /** The store under test: a fresh, migrated, empty database for every test. */
  readonly store: CatalogStore;
  /** Opens another store on the same database (a second replica); closed after the test. */
  openAnother(options?: CatalogStoreOptions): Promise<CatalogStore>;
}

/** Registers the hooks that give every test of the calling describe block its own database. */
export function useFreshStore(backend: StoreBackend): StoreContext {
  let database: IsolatedDatabase | undefined;
  let current: CatalogStore | undefined;
  const opened: CatalogStore[] = [];

  beforeEach(async () => {
    database = await backend.isolate();
    current = await createCatalogStore(database.url, {});
    opened.push(current);
    await current.migrate();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    current = undefined;
    await database?.drop();
    database = undefined;
  });

  return {
    get store(): CatalogStore {
      if (current === undefined) throw new Error('the store exists only inside a test');
      return current;
    },
    async openAnother(options: CatalogStoreOptions = {}): Promise<CatalogStore> {
      if (database === undefined) throw new Error('the database exists only inside a test');
      const store = await createCatalogStore(database.url, options);
      opened.push(store);
      return store;
    },
  };
}
