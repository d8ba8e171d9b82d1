// The immutable in-memory index of one catalogue version (issue 9). Built once from one
// snapshot of the store (every available record, read a page at a time into IndexRows), it
// answers every GET /instances filter, sort, page and total, the records /recommend ranks, and
// whatever else reads the current catalogue (/instance-types, CSV export), without SQL. See
// docs/architecture.md and docs/adr/.
//
// Layout (per record, by position = index in id order):
//   - the rows themselves (InstanceRow, strings interned across records),
//   - the record's API JSON, serialised once, as one string per record (a page is one join of
//     them: strings live on the V8 heap, so a request allocates no off-heap Buffer, see ADR 0009),
//   - filter columns in typed arrays (numbers, and small codes for provider/region/family),
//   - for each of the 10 sort columns and both directions, the order (`perm`) and each
//     position's place in it (`rank`): 2 x 10 x 2 x 4 bytes = 160 bytes a record, plus each
//     column's sort keys in ascending order (10 x 8 = 80 bytes a record),
//   - posting lists for the equality filters (provider, region, family, has_gpu).
// A query scans the smallest candidate set its filters allow (a posting list, or a binary-searched
// range of a numeric column's order), tests every condition on the columns, counts the total and
// collects the matches' ranks in the requested order; the page is read off those ranks.
import { LRUCache } from 'lru-cache';
import type { MoneyView } from '../../fx/convert.js';
import type { InstanceFilter, InstancePage, InstanceQuery, SortColumn } from '../record-query.js';
import type { CatalogSnapshot } from '../catalogues.js';
import type { InstanceRow } from '../records.js';
import { toInstanceRecord } from '../instance-json.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES } from '../model.js';
import { foldAsciiCase } from '../text-search.js';
import { IndexRows } from './index-rows.js';
import {
  buildColumnOrders,
  lowerBound,
  OrderScratch,
  SORT_COLUMNS,
  type ColumnOrders,
} from './sort-orders.js';

/**
 * Upper bound of the records serialised in currencies other than USD (D43), per index, in bytes
 * (UTF-16 strings: 2 bytes a character, plus the key and bookkeeping). USD is serialised for
 * every record at build; another currency only for the records a request showed in it.
 */
export const CONVERTED_JSON_MAX_BYTES = 16 * 1024 * 1024;

/** Identifies a MoneyView's prices: the same currency and rates give the same JSON. */
function moneyKey(money: MoneyView): string {
  const note = money.note;
  return note === undefined
    ? money.currency
    : `${note.currency}|${note.as_of}|${note.source}|${note.rate}`;
}

const NO_POSITIONS = new Int32Array(0);
const EMPTY_SELECTION = { positions: NO_POSITIONS, total: 0 } as const;

/** The columns a numeric range filter can drive a query from. */
type RangeColumn = 'vcpu' | 'memory_mb' | 'monthly_price';
/** The condition a query's candidate set stands for ('none': every record). */
// Posting lists are named apart from the sort columns ('region' is both a filter and a sort):
// only a range driver is a block of a sort order.
type Condition =
  'none' | 'provider list' | 'region list' | 'family list' | 'gpu list' | RangeColumn;

function finite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number`);
  return value;
}

function pageBounds(limit: number, offset: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError('limit must be a positive integer');
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError('offset must be a non-negative integer');
  }
}

function postings(codes: Uint8Array | Uint16Array, count: number): Int32Array[] {
  const sizes = new Int32Array(count);
  for (const code of codes) sizes[code]! += 1;
  const lists = [...sizes].map((size) => new Int32Array(size));
  const filled = new Int32Array(count);
  for (let p = 0; p < codes.length; p++) {
    const code = codes[p]!;
    lists[code]![filled[code]!++] = p;
  }
  return lists;
}

/**
 * One catalogue version, immutable once built. Cheap to read from any number of requests;
 * build a new one (CatalogIndex.build) for a new version rather than changing this one.
 *
 * Reading API (what routes, the CLI and other read models build on):
 * - `version`, `lastSuccessfulSync`, `size`, `records` (every available record, id order)
 * - `get(id)`: one record; `json(id)`: its API JSON (spec 2.1), serialised once
 * - `query(InstanceQuery)`: one page and the total, exactly as the SQL path answers
 *   (D15, D16, D18; `storage/catalog-queries.ts` stays the reference, compared in tests)
 * - `filter(InstanceFilter, sort?, order?)`: every matching record in order (CSV, grouping)
 * - `jsonArray(rows)`: `[record,record,...]` as one string, from the serialised records
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

  readonly #ids: Float64Array;
  /** The API JSON (USD) of position p, serialised at build. */
  readonly #json: readonly string[];
  /** UTF-8 bytes of all of #json together. */
  readonly #jsonBytes: number;

  readonly #vcpu: Float64Array;
  readonly #memory: Float64Array;
  readonly #monthly: Float64Array;
  readonly #gpu: Float64Array;
  readonly #provider: Uint8Array;
  readonly #region: Uint16Array;
  readonly #family: Uint8Array;
  readonly #regionCodes: Map<string, number>;

  readonly #all: Int32Array;
  readonly #byProvider: Int32Array[];
  readonly #byRegion: Int32Array[];
  readonly #byFamily: Int32Array[];
  readonly #withGpu: Int32Array;
  readonly #withoutGpu: Int32Array;
  readonly #orders: ReadonlyMap<SortColumn, ColumnOrders>;

  /** Per-query scratch space (queries run synchronously, one at a time). */
  readonly #scratchRanks: Int32Array;
  /** Records' JSON in other currencies, by `${moneyKey}#${position}`. */
  readonly #converted = new LRUCache<string, string>({
    maxSize: CONVERTED_JSON_MAX_BYTES,
    sizeCalculation: (json, key) => (json.length + key.length) * 2 + 64,
  });

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

    // Serialise every record once. Kept as strings, not copied into a Buffer: a page is then
    // one string join on the V8 heap (young-generation garbage once sent), where a Buffer per
    // page was an off-heap allocation that pushed V8 into a full Mark-Compact every ~0.3 s
    // under load ("external memory"; docs/performance.md).
    // Measured (flattened) right after it is made: JSON.stringify returns a rope of parts, and
    // a rope kept until a later pass outlives two scavenges, so its parts were promoted and
    // left ~30 MB of old-space garbage for 50,000 records; flattened while young, the parts die
    // in the next scavenge and the flat text is all that is promoted (issue 9).
    const json = new Array<string>(n);
    let bytes = 0;
    for (let p = 0; p < n; p++) {
      const text = JSON.stringify(toInstanceRecord(rows[p]!));
      bytes += Buffer.byteLength(text);
      json[p] = text;
    }
    this.#json = json;
    this.#jsonBytes = bytes;

    this.#vcpu = Float64Array.from(rows, (row) => row.vcpu);
    this.#memory = Float64Array.from(rows, (row) => row.memoryMb);
    this.#monthly = Float64Array.from(rows, (row) => row.monthlyMicros);
    this.#gpu = Float64Array.from(rows, (row) => row.gpuCount);
    this.#provider = Uint8Array.from(rows, (row) => PROVIDER_NAMES.indexOf(row.providerName));
    this.#family = Uint8Array.from(rows, (row) => INSTANCE_FAMILIES.indexOf(row.family));
    this.#regionCodes = new Map();
    for (const row of rows) {
      if (!this.#regionCodes.has(row.regionCode)) {
        this.#regionCodes.set(row.regionCode, this.#regionCodes.size);
      }
    }
    this.#region = Uint16Array.from(rows, (row) => this.#regionCodes.get(row.regionCode)!);

    this.#all = Int32Array.from(rows, (_, p) => p);
    this.#byProvider = postings(this.#provider, PROVIDER_NAMES.length);
    this.#byRegion = postings(this.#region, this.#regionCodes.size);
    this.#byFamily = postings(this.#family, INSTANCE_FAMILIES.length);
    const gpuFlags = Uint8Array.from(rows, (row) => (row.gpuCount > 0 ? 1 : 0));
    const [withoutGpu, withGpu] = postings(gpuFlags, 2);
    this.#withGpu = withGpu!;
    this.#withoutGpu = withoutGpu!;
    const scratch = new OrderScratch(n);
    this.#orders = new Map(
      SORT_COLUMNS.map((column) => [column, buildColumnOrders(rows, column, scratch)]),
    );

    this.byMonthlyPrice = Object.freeze(
      Array.from(this.#orders.get('monthly_price')!.asc.perm, (p) => rows[p]!),
    );
    this.#scratchRanks = new Int32Array(n);
  }

  /**
   * Per position, the folded instance_id and instance_name joined by a character neither can
   * hold (q has no control characters), so one includes() tests both and never matches across.
   */
  #searchText: readonly string[] | undefined;

  #searchable(): readonly string[] {
    this.#searchText ??= this.records.map(
      (row) => `${foldAsciiCase(row.instanceId)}\u0000${foldAsciiCase(row.instanceName)}`,
    );
    return this.#searchText;
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

  /** Bytes of the records' serialised JSON (USD), all records together. */
  get jsonBytes(): number {
    return this.#jsonBytes;
  }

  /** Bytes held in the serialised records and the typed arrays (rows themselves excluded). */
  get arrayBytes(): number {
    let bytes = this.#jsonBytes + this.#ids.byteLength;
    for (const column of [this.#vcpu, this.#memory, this.#monthly, this.#gpu]) {
      bytes += column.byteLength;
    }
    bytes += this.#provider.byteLength + this.#region.byteLength + this.#family.byteLength;
    bytes += this.#all.byteLength * 3 + this.#scratchRanks.byteLength;
    for (const orders of this.#orders.values()) {
      bytes += orders.ascKeys.byteLength;
      for (const order of [orders.asc, orders.desc]) {
        bytes += order.perm.byteLength + order.rank.byteLength;
      }
    }
    return bytes;
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

  /** The record's API JSON (spec 2.1), serialised at build. */
  json(id: number): string | undefined {
    const p = this.#position(id);
    return p < 0 ? undefined : this.#json[p];
  }

  /**
   * `[json,json,...]` of these records (each must be one of this index's records), with prices
   * in `money`'s currency (D43; USD when omitted). USD text is the one serialised at build;
   * another currency's is serialised on first use and kept in a bounded memo.
   */
  jsonArray(rows: readonly InstanceRow[], money?: MoneyView): string {
    const positions = rows.map((row) => {
      const p = this.#position(row.id);
      if (p < 0) throw new Error(`record ${row.id} is not in catalogue version ${this.version}`);
      return p;
    });
    return this.#jsonAt(positions, money);
  }

  #jsonAt(positions: ArrayLike<number>, money: MoneyView | undefined): string {
    if (money !== undefined && money.currency !== 'USD')
      return this.#convertedArray(money, positions);
    // Concatenated, not joined: `+` on long strings makes a rope (a cons string: two pointers),
    // where a join copies every record's text once more. The rope is flattened once, where
    // the body's length is taken (Fastify's Buffer.byteLength), instead of after a copy.
    const json = this.#json;
    if (positions.length === 0) return '[]';
    let out = `[${json[positions[0]!]!}`;
    for (let i = 1; i < positions.length; i++) out += `,${json[positions[i]!]!}`;
    return `${out}]`;
  }

  #convertedArray(money: MoneyView, positions: ArrayLike<number>): string {
    const prefix = `${moneyKey(money)}#`;
    const texts = Array.from(positions, (p) => {
      const key = prefix + p;
      let text = this.#converted.get(key);
      if (text === undefined) {
        text = JSON.stringify(toInstanceRecord(this.records[p]!, money));
        this.#converted.set(key, text);
      }
      return text;
    });
    return `[${texts.join(',')}]`;
  }

  /** One page and the total: the same answer as CatalogStore.queryInstances. */
  query(query: InstanceQuery): InstancePage {
    pageBounds(query.limit, query.offset);
    const { positions, total } = this.#select(
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
  ): { readonly total: number; readonly count: number; readonly json: string } {
    pageBounds(query.limit, query.offset);
    const { positions, total } = this.#select(
      query.filter,
      query.sort,
      query.order,
      query.limit,
      query.offset,
    );
    return { total, count: positions.length, json: this.#jsonAt(positions, money) };
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
    return this.#rowsAt(this.#select(filter, sort, order, Math.max(1, this.size), 0).positions);
  }

  #select(
    filter: InstanceFilter,
    sort: SortColumn,
    order: 'asc' | 'desc',
    limit: number,
    offset: number,
  ): { readonly positions: Int32Array; readonly total: number } {
    const minVcpu = filter.minVcpu === undefined ? -Infinity : finite(filter.minVcpu, 'minVcpu');
    const maxVcpu = filter.maxVcpu === undefined ? Infinity : finite(filter.maxVcpu, 'maxVcpu');
    const minMemory =
      filter.minMemoryMb === undefined ? -Infinity : finite(filter.minMemoryMb, 'minMemoryMb');
    const maxMemory =
      filter.maxMemoryMb === undefined ? Infinity : finite(filter.maxMemoryMb, 'maxMemoryMb');
    const maxMonthly =
      filter.maxMonthlyMicros === undefined
        ? Infinity
        : finite(filter.maxMonthlyMicros, 'maxMonthlyMicros');
    // -1: any value. A value this catalogue does not hold matches nothing.
    const provider = filter.provider === undefined ? -1 : PROVIDER_NAMES.indexOf(filter.provider);
    const family = filter.family === undefined ? -1 : INSTANCE_FAMILIES.indexOf(filter.family);
    const region = filter.region === undefined ? -1 : (this.#regionCodes.get(filter.region) ?? -2);
    if (region === -2 || (filter.provider !== undefined && provider < 0)) return EMPTY_SELECTION;
    // D53: any of several regions, as a mask over this index's region numbers.
    let regionMask: Uint8Array | undefined;
    if (filter.regions !== undefined) {
      regionMask = new Uint8Array(this.#regionCodes.size);
      for (const code of filter.regions) {
        const number = this.#regionCodes.get(code);
        if (number !== undefined) regionMask[number] = 1;
      }
      if (!regionMask.includes(1)) return EMPTY_SELECTION;
    }
    // D54: the folded ids and names, made on the first search of this version.
    const text = filter.text;
    const searchable = text === undefined ? undefined : this.#searchable();
    if (filter.family !== undefined && family < 0) return EMPTY_SELECTION;
    const gpu = filter.hasGpu === undefined ? 0 : filter.hasGpu ? 1 : 2;

    // The smallest set of positions that holds every match, and which condition it is: when
    // that is the only condition, every position of the driver matches.
    let driver = this.#all;
    let driverCondition = 'none' as Condition; // (set in consider: no narrowing)
    let driverFrom = 0;
    const consider = (candidate: Int32Array, condition: Condition, from = 0) => {
      if (candidate.length >= driver.length) return;
      driver = candidate;
      driverCondition = condition;
      driverFrom = from;
    };
    if (provider >= 0) consider(this.#byProvider[provider]!, 'provider list');
    if (region >= 0) consider(this.#byRegion[region]!, 'region list');
    if (family >= 0) consider(this.#byFamily[family]!, 'family list');
    if (gpu !== 0) consider(gpu === 1 ? this.#withGpu : this.#withoutGpu, 'gpu list');
    const range = (column: RangeColumn, min: number, max: number) => {
      if (min === -Infinity && max === Infinity) return;
      const orders = this.#orders.get(column)!;
      const from = min === -Infinity ? 0 : lowerBound(orders.ascKeys, min);
      const to = max === Infinity ? orders.ascKeys.length : lowerBound(orders.ascKeys, max, true);
      consider(orders.asc.perm.subarray(from, Math.max(from, to)), column, from);
    };
    range('vcpu', minVcpu, maxVcpu);
    range('memory_mb', minMemory, maxMemory);
    range('monthly_price', -Infinity, maxMonthly);
    const conditions =
      Number(minVcpu !== -Infinity || maxVcpu !== Infinity) +
      Number(minMemory !== -Infinity || maxMemory !== Infinity) +
      Number(maxMonthly !== Infinity) +
      Number(provider >= 0) +
      Number(region >= 0) +
      Number(regionMask !== undefined) +
      Number(searchable !== undefined) +
      Number(family >= 0) +
      Number(gpu !== 0);
    const driverExact = conditions === 0 || (conditions === 1 && driverCondition !== 'none');

    const vcpu = this.#vcpu;
    const memory = this.#memory;
    const monthly = this.#monthly;
    const gpus = this.#gpu;
    const providers = this.#provider;
    const regions = this.#region;
    const families = this.#family;
    const matches = (p: number): boolean => {
      const v = vcpu[p]!;
      const m = memory[p]!;
      if (v < minVcpu || v > maxVcpu || m < minMemory || m > maxMemory) return false;
      if (monthly[p]! > maxMonthly) return false;
      if (provider >= 0 && providers[p] !== provider) return false;
      if (region >= 0 && regions[p] !== region) return false;
      if (regionMask !== undefined && regionMask[regions[p]!] === 0) return false;
      if (searchable !== undefined && !searchable[p]!.includes(text!)) return false;
      if (family >= 0 && families[p] !== family) return false;
      if (gpu !== 0 && (gpu === 1) !== gpus[p]! > 0) return false;
      return true;
    };

    const columnOrders = this.#orders.get(sort)!;
    const sortOrder = columnOrders[order];
    const n = this.size;
    let total = driver.length;
    if (!driverExact) {
      total = 0;
      for (let k = 0; k < driver.length; k++) if (matches(driver[k]!)) total += 1;
    }
    if (offset >= total) return { positions: NO_POSITIONS, total };

    const wanted = Math.min(limit, total - offset);
    let positions: Int32Array;
    if (driverExact && driverCondition === sort && !Number.isNaN(columnOrders.ascKeys[n - 1])) {
      // A range of the sort column is all there is: the page is a slice of the order. In
      // descending order the range is the same block of whole key groups, counted from the end.
      const start = order === 'asc' ? driverFrom : n - (driverFrom + driver.length);
      positions = sortOrder.perm.subarray(start + offset, start + offset + wanted);
    } else if (total * 16 <= n) {
      // Few matches: sort their ranks (a native numeric sort).
      const rank = sortOrder.rank;
      const ranks = this.#scratchRanks;
      let count = 0;
      for (let k = 0; k < driver.length; k++) {
        const p = driver[k]!;
        if (driverExact || matches(p)) ranks[count++] = rank[p]!;
      }
      const sorted = ranks.subarray(0, count).sort();
      positions = new Int32Array(wanted);
      for (let i = 0; i < wanted; i++) positions[i] = sortOrder.perm[sorted[offset + i]!]!;
    } else {
      // Many: walk the order up to the end of the page (about (offset + limit) x n / total
      // positions), testing each.
      const perm = sortOrder.perm;
      positions = new Int32Array(wanted);
      let seen = 0;
      let taken = 0;
      for (let r = 0; taken < wanted; r++) {
        const p = perm[r]!;
        if (!matches(p)) continue;
        if (seen >= offset) positions[taken++] = p;
        seen += 1;
      }
    }
    return { positions, total };
  }

  /** Bytes the other-currency JSON memo holds (at most CONVERTED_JSON_MAX_BYTES). */
  get convertedBytesHeld(): number {
    return this.#converted.calculatedSize;
  }
}
