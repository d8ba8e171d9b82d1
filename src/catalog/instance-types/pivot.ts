// GET /instance-types (D46) as a pure function: the matching records of a catalogue, grouped per
// (provider, instance type) with their prices per region side by side. Nothing here reads
// storage or knows HTTP; the route hands in the records (from the catalogue index) and sends
// what instanceTypesPage returns.
//
// Every figure is computed from the records' exact USD micros; only the JSON (toJson) converts
// and rounds, so a cell is exactly what /instances shows for that record, in any currency.
import type { InstanceRow } from '../records.js';
import { ASIAN_REGIONS, type ProviderName } from '../model.js';

export const INSTANCE_TYPE_SORTS = [
  'min_price',
  'max_price',
  'spread',
  'vcpu',
  'memory',
  'instance_id',
] as const;
export type InstanceTypeSort = (typeof INSTANCE_TYPE_SORTS)[number];

export const AVAILABLE_IN = ['any', 'all'] as const;
export type AvailableIn = (typeof AVAILABLE_IN)[number];

export interface PivotOptions {
  /** The listed regions (D46 `regions`), in the order their prices are shown. */
  readonly regions: readonly string[];
  readonly availableIn: AvailableIn;
  readonly sort: InstanceTypeSort;
  readonly order: 'asc' | 'desc';
}

/** One (provider, instance type): its records in the listed regions, cheapest first. */
export interface InstanceType {
  readonly provider: ProviderName;
  readonly instanceId: string;
  /** The record the type's specs are shown from: the lowest record id of the group. */
  readonly specs: InstanceRow;
  /** One record per region, in the order of PivotOptions.regions. */
  readonly cells: readonly InstanceRow[];
  /** The cheapest record (monthly, then hourly, then the listed order). */
  readonly cheapest: InstanceRow;
  readonly minMonthlyMicros: number;
  readonly maxMonthlyMicros: number;
}

/** Which listed regions belong to each provider (regions are per provider, D34). */
function regionsByProvider(regions: readonly string[]): Map<ProviderName, Set<string>> {
  const listed = new Set(regions);
  const byProvider = new Map<ProviderName, Set<string>>();
  for (const region of ASIAN_REGIONS) {
    if (!listed.has(region.regionCode)) continue;
    let set = byProvider.get(region.provider);
    if (set === undefined) byProvider.set(region.provider, (set = new Set()));
    set.add(region.regionCode);
  }
  return byProvider;
}

/** UTF-16 order equals code-point order except around surrogates (D16 sorts by code point). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xHigh = x >= 0xd800 && x <= 0xdfff;
    const yHigh = y >= 0xd800 && y <= 0xdfff;
    return xHigh === yHigh ? x - y : xHigh ? 1 : -1;
  }
  return a.length - b.length;
}

function cheaper(a: InstanceRow, b: InstanceRow, place: ReadonlyMap<string, number>): boolean {
  if (a.monthlyMicros !== b.monthlyMicros) return a.monthlyMicros < b.monthlyMicros;
  if (a.hourlyMicros !== b.hourlyMicros) return a.hourlyMicros < b.hourlyMicros;
  return place.get(a.regionCode)! < place.get(b.regionCode)!;
}

/**
 * Groups the records into instance types. `records` are the records matching the query's
 * filters; those outside the listed regions are ignored. With `available_in=all`, a type is kept
 * only when it has a record in every listed region of its provider (a provider none of whose
 * regions is listed has no types at all). A record id appears in one type only.
 */
export function groupInstanceTypes(
  records: readonly InstanceRow[],
  options: Pick<PivotOptions, 'regions' | 'availableIn'>,
): InstanceType[] {
  const place = new Map(options.regions.map((code, i) => [code, i]));
  const byProvider = regionsByProvider(options.regions);
  const groups = new Map<string, InstanceRow[]>();
  for (const row of records) {
    if (!byProvider.get(row.providerName)?.has(row.regionCode)) continue;
    const key = `${row.providerName}\u0000${row.instanceId}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(row);
  }
  const types: InstanceType[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const wanted = byProvider.get(first.providerName)!;
    // One record per region: the catalogue has one per (type, region); if a store ever gave two,
    // the lower id wins, as everywhere ties break on id.
    const perRegion = new Map<string, InstanceRow>();
    for (const row of group) {
      const known = perRegion.get(row.regionCode);
      if (known === undefined || row.id < known.id) perRegion.set(row.regionCode, row);
    }
    if (options.availableIn === 'all' && perRegion.size < wanted.size) continue;
    const cells = [...perRegion.values()].sort(
      (a, b) => place.get(a.regionCode)! - place.get(b.regionCode)!,
    );
    let cheapest = cells[0]!;
    let specs = cells[0]!;
    let max = cells[0]!.monthlyMicros;
    for (const cell of cells) {
      if (cheaper(cell, cheapest, place)) cheapest = cell;
      if (cell.id < specs.id) specs = cell;
      if (cell.monthlyMicros > max) max = cell.monthlyMicros;
    }
    types.push({
      provider: first.providerName,
      instanceId: first.instanceId,
      specs,
      cells,
      cheapest,
      minMonthlyMicros: cheapest.monthlyMicros,
      maxMonthlyMicros: max,
    });
  }
  return types;
}

/**
 * D46's spread_pct: (max - min) / min x 100, rounded half up to 2 decimals, exact (integer
 * arithmetic on the USD micros, so the same in every currency); null when the cheapest price
 * is 0 (no percentage of nothing).
 */
export function spreadPct(minMicros: number, maxMicros: number): number | null {
  if (minMicros === 0) return null;
  const min = BigInt(minMicros);
  // Hundredths of a percent: (max - min) x 10^4 / min, half up.
  const scaled = (2n * (BigInt(maxMicros) - min) * 10_000n + min) / (2n * min);
  return Number(scaled) / 100;
}

/** Compares two spreads exactly; a null spread (free cheapest price) sorts after any number. */
function compareSpread(a: InstanceType, b: InstanceType): number {
  const aNull = a.minMonthlyMicros === 0;
  const bNull = b.minMonthlyMicros === 0;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? 1 : -1;
  const left = BigInt(a.maxMonthlyMicros - a.minMonthlyMicros) * BigInt(b.minMonthlyMicros);
  const right = BigInt(b.maxMonthlyMicros - b.minMonthlyMicros) * BigInt(a.minMonthlyMicros);
  return left < right ? -1 : left > right ? 1 : 0;
}

function sortKey(sort: InstanceTypeSort): (a: InstanceType, b: InstanceType) => number {
  switch (sort) {
    case 'min_price':
      return (a, b) => a.minMonthlyMicros - b.minMonthlyMicros;
    case 'max_price':
      return (a, b) => a.maxMonthlyMicros - b.maxMonthlyMicros;
    case 'spread':
      return compareSpread;
    case 'vcpu':
      return (a, b) => a.specs.vcpu - b.specs.vcpu;
    case 'memory':
      return (a, b) => a.specs.memoryMb - b.specs.memoryMb;
    case 'instance_id':
      return (a, b) => compareCodePoints(a.instanceId, b.instanceId);
  }
}

/**
 * Sorts in place by `sort` and `order`; ties break on provider then instance id, ascending in
 * both orders (as D16's ties on id), so pages never overlap or skip. A null spread is last in
 * both orders.
 */
export function sortInstanceTypes(
  types: InstanceType[],
  sort: InstanceTypeSort,
  order: 'asc' | 'desc',
): InstanceType[] {
  const primary = sortKey(sort);
  const sign = order === 'asc' ? 1 : -1;
  return types.sort((a, b) => {
    if (sort === 'spread' && (a.minMonthlyMicros === 0) !== (b.minMonthlyMicros === 0)) {
      return compareSpread(a, b);
    }
    const first = primary(a, b) * sign;
    if (first !== 0) return first;
    return (
      compareCodePoints(a.provider, b.provider) || compareCodePoints(a.instanceId, b.instanceId)
    );
  });
}

export interface InstanceTypePage {
  readonly types: readonly InstanceType[];
  readonly total: number;
}

/** Groups, sorts and pages: the whole of D46 but the JSON. */
export function instanceTypesPage(
  records: readonly InstanceRow[],
  options: PivotOptions & { readonly limit: number; readonly offset: number },
): InstanceTypePage {
  const types = sortInstanceTypes(
    groupInstanceTypes(records, options),
    options.sort,
    options.order,
  );
  return {
    types: types.slice(options.offset, options.offset + options.limit),
    total: types.length,
  };
}
