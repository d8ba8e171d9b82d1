// Recommendation candidates change only when the catalogue does, and a request's candidate
// query takes few shapes (the memory requirement of a stack and scale, plus optional filters).
// Reading thousands of records per request dominated POST /recommend, so candidate lists are
// kept per query until the next catalogue change. Scoring still runs on every request: this is
// not a response cache.
import { LRUCache } from 'lru-cache';
import type { CandidateQuery, CatalogStore, InstanceRow } from '../storage/catalog-store.js';

export class CandidateCache {
  private readonly lists: LRUCache<string, Promise<readonly InstanceRow[]>>;

  constructor(
    private readonly store: CatalogStore,
    maxQueries = 256,
  ) {
    this.lists = new LRUCache({ max: maxQueries });
  }

  find(query: CandidateQuery): Promise<readonly InstanceRow[]> {
    const key = JSON.stringify([query.minMemoryMb, query.providers ?? null, query.regions ?? null]);
    let list = this.lists.get(key);
    if (list === undefined) {
      list = this.store.findCandidates(query);
      this.lists.set(key, list);
      // A failed read is not remembered.
      list.catch(() => {
        if (this.lists.get(key) === list) this.lists.delete(key);
      });
    }
    return list;
  }

  /** The catalogue changed (a sync on any replica). */
  invalidate(): void {
    this.lists.clear();
  }
}
