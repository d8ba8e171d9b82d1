// The immutable in-memory index of one catalogue version (issue 9). Built once from one
// snapshot of the store (every available record, read a page at a time into IndexRows), it
// answers every GET /instances filter, sort, page and total, the records /recommend ranks, and
// whatever else reads the current catalogue (/instance-types, CSV export), without SQL. See
// docs/architecture.md and docs/adr/.
//
// Layout (per record, by position = index in id order):
//   - the rows themselves (InstanceRow, strings interned across records) and their ids,
//   - the record's API JSON, serialised on first use and kept (within a bound), as one string
//     per record; a page is written from them into the one Buffer it is sent from (ADR 0009;
//     record-texts.ts),
//   - filter columns in typed arrays (numbers, and small codes for provider/region/family and
//     the D62 architecture and CPU allocation),
//   - for each sort column a query used (built on its first use) and both directions, the
//     order (`perm`) and each position's place in it (`rank`): 2 x 2 x 4 = 16 bytes a record,
//     plus the column's sort keys in ascending order (8 bytes a record; sort-orders.ts),
//   - posting lists for the equality filters (provider, region, family, has_gpu).
// The columns, orders and posting lists, and the selection of a page off them, are in
// record-selection.ts. Every part is built once, here, from the same rows in the same order,
// and none changes afterwards (the other-currency JSON memo aside, which only adds texts).
import type { MoneyView } from '../money-view.js';
import type { InstanceFilter, InstancePage, InstanceQuery, SortColumn } from '../record-query.js';
import type { CatalogSnapshot } from '../catalogues.js';
import { recordAs, type InstanceRow } from '../records.js';
import type { PurchaseOption } from '../purchase-options.js';
import { IndexRows } from './index-rows.js';
import { RecordSelection } from './record-selection.js';
import { recordColumns, type RecordColumns } from './record-columns.js';
import { RecordTexts, type JsonBytes } from './record-texts.js';
import { lowerBound } from './sort-orders.js';

function pageBounds(limit: number, offset: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError('limit must be a positive integer');
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError('offset must be a non-negative integer');
  }
}

/**
 * One catalogue version, immutable once built. Cheap to read from any number of requests;
 * build a new one (CatalogIndex.build) for a new version rather than changing this one.
 *
 * Reading API (what routes, the CLI and other read models build on):
 * - `version`, `lastSuccessfulSync`, `size`, `records` (every available record, id order)
 * - `get(id)`: one record; `json(id)`: its API JSON (spec 2.1), serialised on first use
 * - `query(InstanceQuery)`: one page and the total, exactly as the SQL path answers
 *   (D15, D16, D18; `storage/catalog-queries.ts` stays the reference, compared in tests)
 * - `filter(InstanceFilter, sort?, order?)`: every matching record in order (CSV, grouping)
 * - `jsonArray(rows)`: `[record,record,...]` as one string, from the serialised records
 * - `page(InstanceQuery)`: `query`'s page as UTF-8 bytes to write (GET /instances)
 * - `observationInstants`: the records' distinct observation instants, ascending
 * - `byMonthlyPrice`: every available record, monthly price ascending then id (what
 *   /recommend ranks: the ranking filters the candidates itself, D28)
 */
export class CatalogIndex {
  /** The committed catalogue version this index holds (CatalogStore.catalogVersion). */
  readonly version: number;
  /** Newest successful sync of any provider when the snapshot was read (D19), or null. */
  readonly lastSuccessfulSync: Date | null;
  /** Every available record, by id ascending. Frozen. */
  readonly records: readonly InstanceRow[];
  /** Every available record, monthly price ascending then id ascending. Frozen. */
  readonly byMonthlyPrice: readonly InstanceRow[];
  /** byMonthlyPrice's numbers as columns, for a pass over every record (record-columns.ts). */
  readonly byMonthlyPriceColumns: RecordColumns;
  /** The records' distinct observation instants (epoch ms), ascending: which prices are stale
   *  (D57) at a moment is fixed by how many of these are at or before its cutoff. */
  readonly observationInstants: Float64Array;

  readonly #ids: Float64Array;
  /** Each other option's index of this version, built on first use (forOption). */
  readonly #options = new Map<PurchaseOption, CatalogIndex>();
  /** The option this index prices its records by (D61). */
  readonly purchaseOption: PurchaseOption;
  /** The records' API JSON, by position. */
  readonly #texts: RecordTexts;
  /** The filter columns, posting lists and sort orders, by position. */
  readonly #selection: RecordSelection;

  private constructor(source: IndexRows) {
    this.version = source.version;
    this.lastSuccessfulSync = source.lastSuccessfulSync;
    const rows = source.take();
    const n = rows.length;
    this.records = rows;

    this.#ids = new Float64Array(n);
    for (let p = 0; p < n; p++) this.#ids[p] = rows[p]!.id;
    for (let p = 1; p < n; p++) {
      if (this.#ids[p] === this.#ids[p - 1]) throw new Error(`record id ${this.#ids[p]} twice`);
    }

    // D61: an option's index keeps its texts in the bounded memo only (record-texts.ts).
    this.#texts = new RecordTexts(rows, source.purchaseOption === 'on_demand');
    this.#selection = new RecordSelection(rows);
    this.byMonthlyPrice = Object.freeze(
      Array.from(this.#selection.order('monthly_price', 'asc'), (p) => rows[p]!),
    );
    this.byMonthlyPriceColumns = recordColumns(this.byMonthlyPrice);
    this.observationInstants = Float64Array.from(new Set(rows.map((r) => r.observedAt))).sort();
    this.purchaseOption = source.purchaseOption;
  }

  /**
   * This version priced under `option` (D61): only the records sold under it, each with that
   * option's price, so every filter, sort, page, pivot and ranking of the index uses it. Built
   * from this index's records on first use and kept with it (at most one per option); the
   * records share everything but their prices with this index's.
   */
  forOption(option: PurchaseOption): CatalogIndex {
    if (option === this.purchaseOption) return this;
    let built = this.#options.get(option);
    if (built === undefined) {
      const views = this.records.flatMap((row) => recordAs(row, option) ?? []);
      built = new CatalogIndex(
        IndexRows.ofIndexed(this.version, this.lastSuccessfulSync, views, option),
      );
      this.#options.set(option, built);
    }
    return built;
  }

  /**
   * Builds the index of one catalogue version: from rows collected off a store scan
   * (IndexRows.read inside CatalogStore.scanCatalog, how the holder loads), or from a snapshot
   * read whole. Linear in the records apart from the native sorts of each column's keys.
   */
  static build(source: IndexRows | CatalogSnapshot): CatalogIndex {
    return new CatalogIndex(source instanceof IndexRows ? source : IndexRows.of(source));
  }

  /** Number of available records. */
  get size(): number {
    return this.records.length;
  }

  /** Bytes of the records' USD JSON texts kept so far (record-texts.ts). */
  get jsonBytes(): number {
    return this.#texts.bytes;
  }

  /** Bytes held in the serialised records and the typed arrays (rows themselves excluded). */
  get arrayBytes(): number {
    const { memoryMb, vcpu, monthlyMicros, storageGb, spec, specLeaders, specSize } =
      this.byMonthlyPriceColumns;
    const columnBytes = [
      memoryMb,
      vcpu,
      monthlyMicros,
      storageGb,
      spec,
      specLeaders,
      specSize,
    ].reduce((sum, column) => sum + column.byteLength, 0);
    const fixed = this.#ids.byteLength + this.observationInstants.byteLength;
    return this.#texts.bytes + fixed + this.#selection.arrayBytes + columnBytes;
  }

  #position(id: number): number {
    const p = lowerBound(this.#ids, id);
    return p < this.#ids.length && this.#ids[p] === id ? p : -1;
  }

  /** The available record with this id, if any. */
  get(id: number): InstanceRow | undefined {
    const p = this.#position(id);
    return p < 0 ? undefined : this.records[p];
  }

  /** The record's API JSON (spec 2.1). */
  json(id: number): string | undefined {
    const p = this.#position(id);
    return p < 0 ? undefined : this.#texts.at(p);
  }

  /**
   * `[json,json,...]` of these records (each must be one of this index's records), with prices
   * in `money`'s currency (D43; USD when omitted). USD text is the one kept for the record;
   * another currency's is serialised on first use and kept in a bounded memo.
   */
  jsonArray(rows: readonly InstanceRow[], money?: MoneyView): string {
    const positions = rows.map((row) => {
      const p = this.#position(row.id);
      if (p < 0) throw new Error(`record ${row.id} is not in catalogue version ${this.version}`);
      return p;
    });
    const array = this.#texts.arrayBytes(positions, money);
    const bytes = Buffer.allocUnsafe(array.byteLength);
    array.writeTo(bytes, 0);
    return bytes.toString();
  }

  /** One page and the total: the same answer as CatalogStore.queryInstances. */
  query(query: InstanceQuery): InstancePage {
    pageBounds(query.limit, query.offset);
    const { positions, total } = this.#selection.select(
      query.filter,
      query.sort,
      query.order,
      query.limit,
      query.offset,
    );
    const rows = this.#rowsAt(positions);
    return { ids: rows.map((row) => row.id), rows, total };
  }

  /**
   * One page as GET /instances shows it: the total, how many records the page holds, and their
   * JSON array (what `jsonArray` gives for them), without making a row list.
   */
  page(
    query: InstanceQuery,
    money?: MoneyView,
  ): { readonly total: number; readonly count: number; readonly json: JsonBytes } {
    pageBounds(query.limit, query.offset);
    const { positions, total } = this.#selection.select(
      query.filter,
      query.sort,
      query.order,
      query.limit,
      query.offset,
    );
    return { total, count: positions.length, json: this.#texts.arrayBytes(positions, money) };
  }

  #rowsAt(positions: ArrayLike<number>): InstanceRow[] {
    const rows = new Array<InstanceRow>(positions.length);
    for (let i = 0; i < positions.length; i++) rows[i] = this.records[positions[i]!]!;
    return rows;
  }

  /** Every record matching the filter, in the given order (default: monthly price ascending). */
  filter(
    filter: InstanceFilter,
    sort: SortColumn = 'monthly_price',
    order: 'asc' | 'desc' = 'asc',
  ): readonly InstanceRow[] {
    return this.#rowsAt(
      this.#selection.select(filter, sort, order, Math.max(1, this.size), 0).positions,
    );
  }

  /** Bytes the other-currency JSON memo holds (at most CONVERTED_JSON_MAX_BYTES). */
  get convertedBytesHeld(): number {
    return this.#texts.convertedBytesHeld;
  }
}
