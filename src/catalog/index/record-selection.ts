// The filter columns, posting lists and sort orders of one CatalogIndex, and the selection of a
// page of matching positions (position = a record's index in id order) off them.
//
// Holds, per position: the numeric filter columns (Float64Array) and small codes for provider,
// region and family; a posting list per equality filter value (provider, region, family,
// has_gpu); and, per sort column and direction, the order and each position's rank in it
// (sort-orders.ts), built on the column's first use. A selection scans the smallest candidate
// set its filters allow (a posting list, or a binary-searched range of a numeric column's
// order), tests every condition on the columns, counts the total and collects the matches'
// ranks in the requested order.
//
// One version's selections share everything but prices (D61; issue 33 item 6): the on-demand
// selection is built from the rows, and an option's (`priced`) keeps only that option's price
// columns, the positions sold under it and the orders of the price columns; every position of
// the version stays a position of it, and one not sold under the option has NaN prices, which
// no selection matches.
//
// Invariants:
//   - every array is built once (a sort column's on its first use), from the index's rows, and
//     never written afterwards (apart from the rank scratch space, which one selection at a
//     time uses, shared by the version's selections: selections run synchronously);
//   - each posting list holds positions ascending, and every position is in exactly one list
//     per filter;
//   - a selection is the page and total CatalogStore.queryInstances answers for the same
//     filter, sort, order, limit and offset (D15, D16, D18);
//   - the positions a selection returns may be a view of an order: read them, never write them.
import type { InstanceFilter, SortColumn } from '../record-query.js';
import type { InstanceRow } from '../records.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES } from '../model.js';
import { foldAsciiCase } from '../text-search.js';
import { CPU_ALLOCATIONS, CPU_ARCHITECTURES } from '../machine-facts.js';
import {
  buildColumnOrders,
  lowerBound,
  OrderScratch,
  PRICE_SORT_COLUMNS,
  type ColumnOrders,
  type PositionPrices,
} from './sort-orders.js';

/** Positions of the matching records in the requested order, and how many match in all. */
export interface Selection {
  readonly positions: Int32Array;
  readonly total: number;
}

const NO_POSITIONS = new Int32Array(0);
const EMPTY_SELECTION = { positions: NO_POSITIONS, total: 0 } as const;

/** The columns a numeric range filter can drive a query from. */
type RangeColumn = 'vcpu' | 'memory_mb' | 'monthly_price';
/** The condition a query's candidate set stands for ('none': every record). */
// Posting lists are named apart from the sort columns ('region' is both a filter and a sort):
// only a range driver is a block of a sort order.
type Condition =
  'none' | 'sold list' | 'provider list' | 'region list' | 'family list' | 'gpu list' | RangeColumn;

function finite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number`);
  return value;
}

/** A fact's code: 0 for null (matches no filter), else 1 + its place in the vocabulary. */
function factCode(value: string | null, vocabulary: readonly string[]): number {
  return value === null ? 0 : 1 + vocabulary.indexOf(value);
}

/** The codes a list filter accepts, as a mask over fact codes (code 0, null, never set). */
function factMask(
  values: readonly string[] | undefined,
  vocabulary: readonly string[],
): Uint8Array | undefined {
  if (values === undefined) return undefined;
  const mask = new Uint8Array(vocabulary.length + 1);
  for (const value of values) {
    const code = factCode(value, vocabulary);
    if (code > 0) mask[code] = 1;
  }
  return mask;
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

/** What every selection of one version shares: all but the prices (built from the rows). */
class SharedColumns {
  readonly rows: readonly InstanceRow[];
  readonly vcpu: Float64Array;
  readonly memory: Float64Array;
  readonly gpu: Float64Array;
  readonly provider: Uint8Array;
  readonly region: Uint16Array;
  readonly family: Uint8Array;
  /** D62 facts as codes (factCode): architecture and CPU allocation. */
  readonly architecture: Uint8Array;
  readonly allocation: Uint8Array;
  readonly regionCodes: Map<string, number>;

  readonly all: Int32Array;
  readonly byProvider: Int32Array[];
  readonly byRegion: Int32Array[];
  readonly byFamily: Int32Array[];
  readonly withGpu: Int32Array;
  readonly withoutGpu: Int32Array;
  /** The orders of the columns that are not prices, built on a column's first use. */
  readonly orders = new Map<SortColumn, ColumnOrders>();
  /** Per-query scratch space (queries run synchronously, one at a time). */
  readonly scratchRanks: Int32Array;

  constructor(rows: readonly InstanceRow[]) {
    this.rows = rows;
    const n = rows.length;
    this.vcpu = Float64Array.from(rows, (row) => row.vcpu);
    this.memory = Float64Array.from(rows, (row) => row.memoryMb);
    this.gpu = Float64Array.from(rows, (row) => row.gpuCount);
    this.provider = Uint8Array.from(rows, (row) => PROVIDER_NAMES.indexOf(row.providerName));
    this.family = Uint8Array.from(rows, (row) => INSTANCE_FAMILIES.indexOf(row.family));
    this.architecture = Uint8Array.from(rows, (row) =>
      factCode(row.facts.cpuArchitecture, CPU_ARCHITECTURES),
    );
    this.allocation = Uint8Array.from(rows, (row) =>
      factCode(row.facts.cpuAllocation, CPU_ALLOCATIONS),
    );
    this.regionCodes = new Map();
    for (const row of rows) {
      if (!this.regionCodes.has(row.regionCode)) {
        this.regionCodes.set(row.regionCode, this.regionCodes.size);
      }
    }
    this.region = Uint16Array.from(rows, (row) => this.regionCodes.get(row.regionCode)!);

    this.all = Int32Array.from(rows, (_, p) => p);
    this.byProvider = postings(this.provider, PROVIDER_NAMES.length);
    this.byRegion = postings(this.region, this.regionCodes.size);
    this.byFamily = postings(this.family, INSTANCE_FAMILIES.length);
    const gpuFlags = Uint8Array.from(rows, (row) => (row.gpuCount > 0 ? 1 : 0));
    const [withoutGpu, withGpu] = postings(gpuFlags, 2);
    this.withGpu = withGpu!;
    this.withoutGpu = withoutGpu!;
    this.scratchRanks = new Int32Array(n);
  }

  /**
   * Per position, the folded instance_id and instance_name joined by a character neither can
   * hold (q has no control characters), so one includes() tests both and never matches across.
   */
  #searchText: readonly string[] | undefined;

  searchable(): readonly string[] {
    this.#searchText ??= this.rows.map(
      (row) => `${foldAsciiCase(row.instanceId)}\u0000${foldAsciiCase(row.instanceName)}`,
    );
    return this.#searchText;
  }

  get arrayBytes(): number {
    let bytes = 0;
    for (const column of [this.vcpu, this.memory, this.gpu]) bytes += column.byteLength;
    bytes += this.provider.byteLength + this.region.byteLength + this.family.byteLength;
    bytes += this.architecture.byteLength + this.allocation.byteLength;
    bytes += this.all.byteLength * 3 + this.scratchRanks.byteLength;
    return bytes + ordersBytes(this.orders);
  }
}

function ordersBytes(orders: Map<SortColumn, ColumnOrders>): number {
  let bytes = 0;
  for (const column of orders.values()) {
    bytes += column.ascKeys.byteLength;
    for (const order of [column.asc, column.desc]) {
      bytes += order.perm.byteLength + order.rank.byteLength;
    }
  }
  return bytes;
}

/** What a CatalogIndex selects records with; `rows` are the version's records in id order. */
export class RecordSelection {
  readonly #shared: SharedColumns;
  /** The prices this selection filters and sorts by, by position (PositionPrices). */
  readonly #prices: PositionPrices;
  /** The positions priced here (not NaN), ascending: every position for on-demand. */
  readonly #sold: Int32Array;
  /** The orders of the price columns (PRICE_SORT_COLUMNS), built on a column's first use. */
  readonly #priceOrders = new Map<SortColumn, ColumnOrders>();

  /** The on-demand selection of these rows: priced by each row's own prices. */
  static of(rows: readonly InstanceRow[]): RecordSelection {
    return new RecordSelection(new SharedColumns(rows), {
      hourly: Float64Array.from(rows, (row) => row.hourlyMicros),
      monthly: Float64Array.from(rows, (row) => row.monthlyMicros),
    });
  }

  private constructor(shared: SharedColumns, prices: PositionPrices) {
    this.#shared = shared;
    this.#prices = prices;
    const monthly = this.#prices.monthly;
    let sold = 0;
    for (let p = 0; p < monthly.length; p++) if (!Number.isNaN(monthly[p])) sold += 1;
    if (sold === monthly.length) {
      this.#sold = this.#shared.all;
    } else {
      this.#sold = new Int32Array(sold);
      let at = 0;
      for (let p = 0; p < monthly.length; p++) if (!Number.isNaN(monthly[p])) this.#sold[at++] = p;
    }
  }

  /**
   * The same records priced by `prices` (an option's, D61: NaN where not sold), sharing every
   * column but the prices with this selection.
   */
  priced(prices: PositionPrices): RecordSelection {
    const n = this.#shared.rows.length;
    if (prices.hourly.length !== n || prices.monthly.length !== n) {
      throw new RangeError('prices of another catalogue');
    }
    return new RecordSelection(this.#shared, prices);
  }

  /** The positions priced here, ascending (read only). */
  get sold(): Int32Array {
    return this.#sold;
  }

  /** This selection's prices by position (read only). */
  get prices(): PositionPrices {
    return this.#prices;
  }

  /**
   * A column's orders, built on its first use: an index built for every column paid 12 sorts
   * and 288 bytes a record for orders most queries never read. A price column's are this
   * selection's own; the others are the version's, shared.
   */
  #ordersOf(column: SortColumn): ColumnOrders {
    const own = PRICE_SORT_COLUMNS.has(column);
    const built = own ? this.#priceOrders : this.#shared.orders;
    let orders = built.get(column);
    if (orders === undefined) {
      const rows = this.#shared.rows;
      orders = buildColumnOrders(rows, this.#prices, column, new OrderScratch(rows.length));
      built.set(column, orders);
    }
    return orders;
  }

  /**
   * Every position in this column's order (ties on id ascending, D16), those not sold under
   * the option (NaN prices) last in a price column's. Read only.
   */
  order(column: SortColumn, order: 'asc' | 'desc'): Int32Array {
    return this.#ordersOf(column)[order].perm;
  }

  /**
   * Bytes held in this selection's own arrays (prices, sold positions, price orders); with
   * `shared`, the version's shared columns, position lists, scratch space and orders too.
   */
  arrayBytes(shared: boolean): number {
    let bytes = this.#prices.hourly.byteLength + this.#prices.monthly.byteLength;
    if (this.#sold !== this.#shared.all) bytes += this.#sold.byteLength;
    bytes += ordersBytes(this.#priceOrders);
    return shared ? bytes + this.#shared.arrayBytes : bytes;
  }

  /** The positions of one page of the matches in this order, and the total of matches. */
  select(
    filter: InstanceFilter,
    sort: SortColumn,
    order: 'asc' | 'desc',
    limit: number,
    offset: number,
  ): Selection {
    const shared = this.#shared;
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
    const region = filter.region === undefined ? -1 : (shared.regionCodes.get(filter.region) ?? -2);
    if (region === -2 || (filter.provider !== undefined && provider < 0)) return EMPTY_SELECTION;
    // D53: any of several regions, as a mask over this index's region numbers.
    let regionMask: Uint8Array | undefined;
    if (filter.regions !== undefined) {
      regionMask = new Uint8Array(shared.regionCodes.size);
      for (const code of filter.regions) {
        const number = shared.regionCodes.get(code);
        if (number !== undefined) regionMask[number] = 1;
      }
      if (!regionMask.includes(1)) return EMPTY_SELECTION;
    }
    // D54: the folded ids and names, made on the first search of this version.
    const text = filter.text;
    const searchable = text === undefined ? undefined : shared.searchable();
    if (filter.family !== undefined && family < 0) return EMPTY_SELECTION;
    const gpu = filter.hasGpu === undefined ? 0 : filter.hasGpu ? 1 : 2;
    // D62: any of the listed facts; a null fact (code 0) matches no filter on it.
    const architectureMask = factMask(filter.architectures, CPU_ARCHITECTURES);
    const allocationMask = factMask(filter.allocations, CPU_ALLOCATIONS);
    if (architectureMask?.includes(1) === false || allocationMask?.includes(1) === false) {
      return EMPTY_SELECTION;
    }

    // The smallest set of positions that holds every match, and which condition it is: when
    // that is the only condition, every position of the driver matches.
    // Every position when every record is sold under the option; else the sold ones, a
    // condition of their own (a posting list or range holds the others too).
    const everySold = this.#sold === shared.all;
    let driver = this.#sold;
    let driverCondition = (everySold ? 'none' : 'sold list') as Condition; // (set in consider)
    let driverFrom = 0;
    const consider = (candidate: Int32Array, condition: Condition, from = 0) => {
      if (candidate.length >= driver.length) return;
      driver = candidate;
      driverCondition = condition;
      driverFrom = from;
    };
    if (provider >= 0) consider(shared.byProvider[provider]!, 'provider list');
    if (region >= 0) consider(shared.byRegion[region]!, 'region list');
    if (family >= 0) consider(shared.byFamily[family]!, 'family list');
    if (gpu !== 0) consider(gpu === 1 ? shared.withGpu : shared.withoutGpu, 'gpu list');
    const range = (column: RangeColumn, min: number, max: number) => {
      if (min === -Infinity && max === Infinity) return;
      const orders = this.#ordersOf(column);
      const from = min === -Infinity ? 0 : lowerBound(orders.ascKeys, min);
      const to = max === Infinity ? orders.ascKeys.length : lowerBound(orders.ascKeys, max, true);
      consider(orders.asc.perm.subarray(from, Math.max(from, to)), column, from);
    };
    range('vcpu', minVcpu, maxVcpu);
    range('memory_mb', minMemory, maxMemory);
    range('monthly_price', -Infinity, maxMonthly);
    const conditions =
      Number(!everySold) +
      Number(minVcpu !== -Infinity || maxVcpu !== Infinity) +
      Number(minMemory !== -Infinity || maxMemory !== Infinity) +
      Number(maxMonthly !== Infinity) +
      Number(provider >= 0) +
      Number(region >= 0) +
      Number(regionMask !== undefined) +
      Number(searchable !== undefined) +
      Number(family >= 0) +
      Number(gpu !== 0) +
      Number(architectureMask !== undefined) +
      Number(allocationMask !== undefined);
    const driverExact = conditions === 0 || (conditions === 1 && driverCondition !== 'none');

    const vcpu = shared.vcpu;
    const memory = shared.memory;
    const monthly = this.#prices.monthly;
    const gpus = shared.gpu;
    const providers = shared.provider;
    const regions = shared.region;
    const families = shared.family;
    const architectures = shared.architecture;
    const allocations = shared.allocation;
    const matches = (p: number): boolean => {
      const v = vcpu[p]!;
      const m = memory[p]!;
      if (v < minVcpu || v > maxVcpu || m < minMemory || m > maxMemory) return false;
      // A NaN price (not sold under the option) fails this test whatever the bound.
      if (!(monthly[p]! <= maxMonthly)) return false;
      if (provider >= 0 && providers[p] !== provider) return false;
      if (region >= 0 && regions[p] !== region) return false;
      if (regionMask !== undefined && regionMask[regions[p]!] === 0) return false;
      if (searchable !== undefined && !searchable[p]!.includes(text!)) return false;
      if (family >= 0 && families[p] !== family) return false;
      if (gpu !== 0 && (gpu === 1) !== gpus[p]! > 0) return false;
      if (architectureMask !== undefined && architectureMask[architectures[p]!] === 0) return false;
      if (allocationMask !== undefined && allocationMask[allocations[p]!] === 0) return false;
      return true;
    };

    const columnOrders = this.#ordersOf(sort);
    const sortOrder = columnOrders[order];
    const n = shared.rows.length;
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
      const ranks = shared.scratchRanks;
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
}
