// The D16 orders of a catalogue, computed once per version: for each sort column and direction,
// the record positions in order (`perm`) and each position's place in that order (`rank`).
// Ties always break on id ascending, in both directions, so `desc` is not `asc` reversed.
import type { InstanceRow } from '../records.js';
import type { SortColumn } from '../record-query.js';

export const SORT_COLUMNS: readonly SortColumn[] = [
  'monthly_price',
  'hourly_price',
  'vcpu',
  'memory_mb',
  'storage_gb',
  'instance_name',
  'provider',
  'region',
  'price_per_vcpu',
  'price_per_gb',
  'coremark',
  'coremark_per_price',
];

export interface SortOrder {
  /** Record positions in this order. */
  readonly perm: Int32Array;
  /** rank[position] = index of the position in `perm`. */
  readonly rank: Int32Array;
}

export interface ColumnOrders {
  readonly asc: SortOrder;
  readonly desc: SortOrder;
  /** The sort key of each position in `asc` order (for binary searches on numeric columns). */
  readonly ascKeys: Float64Array;
}

/**
 * Code-point order (D16; what SQLite's BINARY and PostgreSQL's "C" collation give on UTF-8).
 * JavaScript's `<` compares UTF-16 units, which puts U+E000..U+FFFF after astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate === ySurrogate) return x - y;
    return xSurrogate ? 1 : -1;
  }
  return a.length - b.length;
}

function textKey(column: SortColumn): ((row: InstanceRow) => string) | undefined {
  switch (column) {
    case 'instance_name':
      return (row) => row.instanceName;
    case 'provider':
      return (row) => row.providerName;
    case 'region':
      return (row) => row.regionCode;
    default:
      return undefined;
  }
}

/**
 * A selection's prices by position: the option's (D61) hourly and monthly micros, NaN where the
 * record is not sold under it (no value: ordered last both ways, and never a match).
 */
export interface PositionPrices {
  readonly hourly: Float64Array;
  readonly monthly: Float64Array;
}

/** The sort columns whose keys are prices (an option's index has its own orders of these). */
export const PRICE_SORT_COLUMNS: ReadonlySet<SortColumn> = new Set<SortColumn>([
  'monthly_price',
  'hourly_price',
  'price_per_vcpu',
  'price_per_gb',
  'coremark_per_price',
]);

function numericKey(
  column: SortColumn,
  prices: PositionPrices,
): (row: InstanceRow, p: number) => number {
  const { hourly, monthly } = prices;
  switch (column) {
    case 'monthly_price':
      return (_, p) => monthly[p]!;
    case 'hourly_price':
      return (_, p) => hourly[p]!;
    case 'vcpu':
      return (row) => row.vcpu;
    case 'memory_mb':
      return (row) => row.memoryMb;
    case 'storage_gb':
      return (row) => row.storageGb;
    // The SQL path's expression: monthly micros / divisor as a double (the same correctly rounded
    // quotient); no value (NaN here, NULL in SQL) for a divisor of 0, ordered last both ways.
    case 'price_per_vcpu':
      return (row, p) => (row.vcpu === 0 ? NaN : monthly[p]! / row.vcpu);
    case 'price_per_gb':
      return (row, p) => (row.memoryMb === 0 ? NaN : monthly[p]! / row.memoryMb);
    // D63: no score (or a free record's ratio) is no value: last in both directions.
    case 'coremark':
      return (row) => row.facts.coremark?.score ?? NaN;
    case 'coremark_per_price':
      return (row, p) => {
        const score = row.facts.coremark?.score;
        return score === undefined || monthly[p] === 0 ? NaN : score / monthly[p]!;
      };
    default:
      throw new Error(`no numeric key for ${column}`);
  }
}

/**
 * Sort keys as numbers: numeric columns as they are, text columns as the ordinal of the value
 * among the distinct values in code-point order (so one numeric sort serves every column).
 */
function keysOf(
  rows: readonly InstanceRow[],
  prices: PositionPrices,
  column: SortColumn,
  keys: Float64Array,
): Float64Array {
  const text = textKey(column);
  if (text === undefined) {
    const key = numericKey(column, prices);
    for (let p = 0; p < rows.length; p++) keys[p] = key(rows[p]!, p);
    return keys;
  }
  const distinct = [...new Set(rows.map(text))].sort(compareCodePoints);
  const ordinal = new Map(distinct.map((value, index) => [value, index]));
  for (let p = 0; p < rows.length; p++) keys[p] = ordinal.get(text(rows[p]!))!;
  return keys;
}

function withRanks(perm: Int32Array): SortOrder {
  const rank = new Int32Array(perm.length);
  for (let i = 0; i < perm.length; i++) rank[perm[i]!] = i;
  return { perm, rank };
}

/**
 * Working space that one build reuses for every column: the sort keys, their distinct values
 * and each position's group, 20 bytes a record. Typed arrays live outside the V8 heap and are
 * freed only when a collection finds their wrappers dead, so a set per column (10 MB for
 * 50,000 records) stayed in RSS after a build until the next GC (issue 9).
 */
export class OrderScratch {
  readonly keys: Float64Array;
  readonly distinct: Float64Array;
  readonly group: Int32Array;

  constructor(records: number) {
    this.keys = new Float64Array(records);
    this.distinct = new Float64Array(records);
    this.group = new Int32Array(records);
  }
}

/**
 * Positions are in id order, so a stable placement by key keeps ties in id order. A NaN key (no
 * value) sorts after every value in both directions, ties on id ascending (the SQL path's NULLS
 * LAST). No comparator sort: the distinct keys are sorted natively (a Float64Array sort), each
 * position finds its key's group by binary search, and one counting pass per direction places
 * the positions (linear apart from the native sort; issue 9's 50,000-record build).
 */
export function buildColumnOrders(
  rows: readonly InstanceRow[],
  prices: PositionPrices,
  column: SortColumn,
  scratch: OrderScratch = new OrderScratch(rows.length),
): ColumnOrders {
  if (scratch.keys.length !== rows.length) throw new RangeError('scratch of another size');
  const keys = keysOf(rows, prices, column, scratch.keys);
  const n = keys.length;
  // The distinct values, ascending, compacted in place (a native sort puts NaN last).
  const distinct = scratch.distinct;
  distinct.set(keys);
  distinct.sort();
  let valued = n;
  while (valued > 0 && Number.isNaN(distinct[valued - 1])) valued -= 1;
  let groups = 0;
  for (let i = 0; i < valued; i++) {
    if (groups === 0 || distinct[i] !== distinct[groups - 1]) distinct[groups++] = distinct[i]!;
  }
  const values = distinct.subarray(0, groups);
  // Each position's group (its key's place among the distinct values; NaN: the last group).
  const group = scratch.group;
  const sizes = new Int32Array(groups + 1);
  for (let p = 0; p < n; p++) {
    const key = keys[p]!;
    const g = Number.isNaN(key) ? groups : lowerBound(values, key);
    group[p] = g;
    sizes[g]! += 1;
  }
  // Where each group starts: ascending groups 0..groups-1 then NaN; descending groups
  // groups-1..0 then NaN (within a group, positions ascending in both).
  const ascStart = new Int32Array(groups + 1);
  const descStart = new Int32Array(groups + 1);
  let at = 0;
  for (let g = 0; g <= groups; g++) {
    ascStart[g] = at;
    at += sizes[g]!;
  }
  at = 0;
  for (let g = groups - 1; g >= 0; g--) {
    descStart[g] = at;
    at += sizes[g]!;
  }
  descStart[groups] = at;
  const asc = new Int32Array(n);
  const desc = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const g = group[p]!;
    asc[ascStart[g]!++] = p;
    desc[descStart[g]!++] = p;
  }
  const ascKeys = new Float64Array(n);
  for (let i = 0; i < n; i++) ascKeys[i] = keys[asc[i]!]!;
  return { asc: withRanks(asc), desc: withRanks(desc), ascKeys };
}

/** First index in `sorted` whose value is >= `value` (or > when `strict`). */
export function lowerBound(sorted: Float64Array, value: number, strict = false): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const v = sorted[middle]!;
    if (v < value || (strict && v === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}
