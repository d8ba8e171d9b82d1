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
//
// A purchase option's index of the same version (forOption, D61) has the same positions: it
// shares the rows, ids and every column but the prices with the on-demand index, and holds the
// option's prices by position (NaN where a record is not sold under it), its own orders of the
// price columns and its own texts memo. A record it hands out is a view made then (recordAs).
import type { MoneyView } from '../money-view.js';
import type { InstanceFilter, InstancePage, InstanceQuery, SortColumn } from '../record-query.js';
import type { CatalogSnapshot } from '../catalogues.js';
import { recordAs, type InstanceRow } from '../records.js';
import type { PurchaseOption } from '../purchase-options.js';
import { IndexRows } from './index-rows.js';
import { RecordSelection } from './record-selection.js';
import { recordColumns, type PriceOrdered } from './record-columns.js';
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

/** How an index reads its prices: on-demand (each row's own) or an option's (D61). */
interface Pricing {
  readonly option: PurchaseOption;
  readonly selection: RecordSelection;
  /** The on-demand index of the same version (the index itself when on-demand). */
  readonly onDemand: CatalogIndex | undefined;
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
 * - `byMonthlyPrice`: every available record, monthly price ascending then id, with its
 *   columns (what /recommend ranks: the ranking filters the candidates itself, D28)
 * - `forOption(option)`: the same version priced under a purchase option (D61)
 */
export class CatalogIndex {
  /** The committed catalogue version this index holds (CatalogStore.catalogVersion). */
  readonly version: number;
  /** Newest successful sync of any provider when the snapshot was read (D19), or null. */
  readonly lastSuccessfulSync: Date | null;
  /** The option this index prices its records by (D61). */
  readonly purchaseOption: PurchaseOption;
  /** The records' distinct observation instants (epoch ms), ascending: which prices are stale
   *  (D57) at a moment is fixed by how many of these are at or before its cutoff. */
  readonly observationInstants: Float64Array;

  /** Every available record of the version, by id ascending, on-demand. Frozen. */
  readonly #rows: readonly InstanceRow[];
  /** The records' ids by position (shared by the version's indexes). */
  readonly #ids: Float64Array;
  /** The filter columns, posting lists and sort orders, by position. */
  readonly #selection: RecordSelection;
  /** The records' API JSON, by position. */
  readonly #texts: RecordTexts;
  /** The on-demand index of this version (this one when on-demand). */
  readonly #onDemand: CatalogIndex;
  /** Each other option's index of this version, built on first use (forOption; on-demand's). */
  readonly #options = new Map<PurchaseOption, CatalogIndex>();
  /** byMonthlyPrice, made on first use. */
  #byPrice: PriceOrdered<InstanceRow> | undefined;

  private constructor(
    source: { version: number; lastSuccessfulSync: Date | null },
    rows: readonly InstanceRow[],
    ids: Float64Array,
    pricing: Pricing,
  ) {
    this.version = source.version;
    this.lastSuccessfulSync = source.lastSuccessfulSync;
    this.purchaseOption = pricing.option;
    this.#rows = rows;
    this.#ids = ids;
    this.#selection = pricing.selection;
    this.#onDemand = pricing.onDemand ?? this;
    // D61: an option's index keeps its texts in the bounded memo only (record-texts.ts).
    const priced = { length: rows.length, at: (p: number) => this.#priced(p) };
    this.#texts = new RecordTexts(priced, pricing.option === 'on_demand');
    const instants = new Set<number>();
    for (const p of this.#selection.sold) instants.add(this.#observedAt(p));
    this.observationInstants = Float64Array.from(instants).sort();
  }

  /**
   * This version priced under `option` (D61): only the records sold under it, each with that
   * option's price, so every filter, sort, page, pivot and ranking of the index uses it. Built
   * on first use and kept with the on-demand index (at most one per option). It holds no copy
   * of a record: it shares the on-demand index's rows and every column but the prices, and
   * makes a record's view with the option's prices (recordAs) when it hands one out.
   */
  forOption(option: PurchaseOption): CatalogIndex {
    if (option === this.purchaseOption) return this;
    const onDemand = this.#onDemand;
    if (option === 'on_demand') return onDemand;
    let built = onDemand.#options.get(option);
    if (built === undefined) {
      const rows = onDemand.#rows;
      const hourly = new Float64Array(rows.length);
      const monthly = new Float64Array(rows.length);
      for (let p = 0; p < rows.length; p++) {
        const quote = rows[p]!.options[option];
        hourly[p] = quote?.hourlyMicros ?? NaN;
        monthly[p] = quote?.monthlyMicros ?? NaN;
      }
      built = new CatalogIndex(onDemand, rows, onDemand.#ids, {
        option,
        selection: onDemand.#selection.priced({ hourly, monthly }),
        onDemand,
      });
      onDemand.#options.set(option, built);
    }
    return built;
  }

  /**
   * Builds the index of one catalogue version: from rows collected off a store scan
   * (IndexRows.read inside CatalogStore.scanCatalog, how the holder loads), or from a snapshot
   * read whole. Linear in the records apart from the native sorts of each column's keys.
   */
  static build(source: IndexRows | CatalogSnapshot): CatalogIndex {
    const from = source instanceof IndexRows ? source : IndexRows.of(source);
    const rows = from.take();
    const ids = new Float64Array(rows.length);
    for (let p = 0; p < rows.length; p++) ids[p] = rows[p]!.id;
    for (let p = 1; p < rows.length; p++) {
      if (ids[p] === ids[p - 1]) throw new Error(`record id ${ids[p]} twice`);
    }
    return new CatalogIndex(from, rows, ids, {
      option: 'on_demand',
      selection: RecordSelection.of(rows),
      onDemand: undefined,
    });
  }

  /** The record at position p priced by this index's option (the caller knows it is sold). */
  #priced(p: number): InstanceRow {
    const row = this.#rows[p]!;
    return this.purchaseOption === 'on_demand' ? row : recordAs(row, this.purchaseOption)!;
  }

  #observedAt(p: number): number {
    const row = this.#rows[p]!;
    return this.purchaseOption === 'on_demand'
      ? row.observedAt
      : row.options[this.purchaseOption]!.observedAt;
  }

  /** Number of available records (sold under the option). */
  get size(): number {
    return this.#selection.sold.length;
  }

  /**
   * Every available record (sold under the option), by id ascending, priced by it. Frozen; an
   * option's index makes the views on each call (nothing reads them all on a request's path).
   */
  get records(): readonly InstanceRow[] {
    if (this.purchaseOption === 'on_demand') return this.#rows;
    return Object.freeze(this.#rowsAt(this.#selection.sold));
  }

  /**
   * Every available record, monthly price ascending then id ascending, for a pass over every
   * one (/recommend): the rows, their columns and each priced by the option (PriceOrdered).
   * Made on first use and kept.
   */
  get byMonthlyPrice(): PriceOrdered<InstanceRow> {
    if (this.#byPrice === undefined) {
      // The sold positions come first in a price order (a NaN price sorts last).
      const order = this.#selection.order('monthly_price', 'asc').subarray(0, this.size);
      const rows = Object.freeze(Array.from(order, (p) => this.#rows[p]!));
      const prices = this.#selection.prices.monthly;
      const monthly = Float64Array.from(order, (p) => prices[p]!);
      this.#byPrice = {
        rows,
        columns: recordColumns(rows, monthly),
        priced: (i) => this.#priced(order[i]!),
      };
    }
    return this.#byPrice;
  }

  /** Bytes of the records' USD JSON texts kept so far (record-texts.ts). */
  get jsonBytes(): number {
    return this.#texts.bytes;
  }

  /**
   * Bytes held in the serialised records and the typed arrays (rows themselves excluded); an
   * option's index counts only what it holds apart from the on-demand index's.
   */
  get arrayBytes(): number {
    // The price order's columns (made on first use) are all typed arrays.
    const columns: readonly ArrayBufferView[] =
      this.#byPrice === undefined ? [] : Object.values(this.#byPrice.columns);
    let columnBytes = 0;
    for (const column of columns) columnBytes += column.byteLength;
    const onDemand = this.purchaseOption === 'on_demand';
    const fixed = (onDemand ? this.#ids.byteLength : 0) + this.observationInstants.byteLength;
    return this.#texts.bytes + fixed + this.#selection.arrayBytes(onDemand) + columnBytes;
  }

  /** The position of the record with this id sold under the option, or -1. */
  #position(id: number): number {
    const p = lowerBound(this.#ids, id);
    if (p >= this.#ids.length || this.#ids[p] !== id) return -1;
    return Number.isNaN(this.#selection.prices.monthly[p]) ? -1 : p;
  }

  /** The available record with this id, if any. */
  get(id: number): InstanceRow | undefined {
    const p = this.#position(id);
    return p < 0 ? undefined : this.#priced(p);
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
    for (let i = 0; i < positions.length; i++) rows[i] = this.#priced(positions[i]!);
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
