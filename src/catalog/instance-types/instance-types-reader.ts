// GET /instance-types (D46) read from the current catalogue index, with a small response memo
// per index version: the pivot walks every matching record, so a repeated query (the web UI's
// table, a dashboard) is answered from bytes. Bounded by entries and bytes; a new catalogue
// version starts an empty memo, so an answer never outlives the catalogue it was built from.
import { LRUCache } from 'lru-cache';
import type { CatalogIndex } from '../index/catalog-index.js';
import type { CatalogIndexHolder } from '../index/catalog-index-holder.js';
import type { InstanceTypesQuery } from './instance-types-query.js';
import { instanceTypesBody } from './instance-types-service.js';

const MEMO_ENTRIES = 256;
const MEMO_MAX_BYTES = 16 * 1024 * 1024;

export class InstanceTypesReader {
  readonly #holder: CatalogIndexHolder;
  #memo: { version: number; bodies: LRUCache<string, Buffer> } | undefined;

  constructor(holder: CatalogIndexHolder) {
    this.#holder = holder;
  }

  async read(query: InstanceTypesQuery): Promise<Buffer> {
    const index = this.#holder.current ?? (await this.#holder.ready());
    const memo = this.#memoFor(index);
    // The rates are part of the answer (D43): a body in another currency names them.
    const note = query.money.note;
    const key = `${query.cacheKey}|${note === undefined ? '' : `${note.as_of}|${note.rate}`}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const records = index.forOption(query.purchaseOption).filter(query.filter);
    const body = Buffer.from(
      JSON.stringify(instanceTypesBody(records, query, index.lastSuccessfulSync)),
    );
    memo.set(key, body);
    return body;
  }

  #memoFor(index: CatalogIndex): LRUCache<string, Buffer> {
    if (this.#memo?.version !== index.version) {
      this.#memo = {
        version: index.version,
        bodies: new LRUCache<string, Buffer>({
          max: MEMO_ENTRIES,
          maxSize: MEMO_MAX_BYTES,
          sizeCalculation: (body, key) => body.length + key.length,
        }),
      };
    }
    return this.#memo.bodies;
  }
}
