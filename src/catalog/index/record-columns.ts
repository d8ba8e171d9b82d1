// The numbers a ranking reads of every record, as columns in the order of a list of records.
// Walking thousands of row objects spread over the heap costs a cache miss a record; these
// arrays are contiguous, so a pass over every record reads them and touches a row object only
// for the few records it keeps. Invariant: entry i of each column is records[i]'s.
import type { InstanceRow } from '../records.js';

export interface RecordColumns {
  readonly memoryMb: Float64Array;
  readonly vcpu: Float64Array;
  readonly monthlyMicros: Float64Array;
  readonly storageGb: Float64Array;
  /**
   * The record's spec, 0 to specLeaders.length - 1: records share one exactly when they have the
   * same provider, instance type, memory, vCPU and storage (an instance type in several regions).
   */
  readonly spec: Int32Array;
  /** The position of each spec's first record, ascending (entry k for spec k). */
  readonly specLeaders: Int32Array;
  /** Records of each spec (entry k for spec k): /recommend's candidate count (D67) without a walk. */
  readonly specSize: Int32Array;
}

type Columned = Pick<
  InstanceRow,
  'memoryMb' | 'vcpu' | 'monthlyMicros' | 'storageGb' | 'providerName' | 'instanceId'
>;

/**
 * Records cheapest first under one purchase option (D61), for a pass over every one: the rows,
 * their numbers as columns (prices the option's), and entry i priced by the option. The rows'
 * own prices may be another option's (an option's index shares the on-demand rows): read their
 * other fields, and prices from the columns or `priced`.
 */
export interface PriceOrdered<R> {
  readonly rows: readonly R[];
  readonly columns: RecordColumns;
  readonly priced: (i: number) => R;
}

/**
 * The columns of `records`, in their order; `monthlyMicros` their monthly prices when those are
 * not the records' own (an option's, D61).
 */
export function recordColumns(
  records: readonly Columned[],
  monthlyMicros: Float64Array = Float64Array.from(records, (r) => r.monthlyMicros),
): RecordColumns {
  if (monthlyMicros.length !== records.length) throw new RangeError('a price per record');
  const column = (read: (row: Columned) => number) => Float64Array.from(records, read);
  const specs = new Map<string, number>();
  const leaders: number[] = [];
  const spec = Int32Array.from(records, (r, position) => {
    const key = `${r.providerName}\n${r.instanceId}\n${r.memoryMb}\n${r.vcpu}\n${r.storageGb}`;
    let id = specs.get(key);
    if (id === undefined) {
      specs.set(key, (id = specs.size));
      leaders.push(position);
    }
    return id;
  });
  const specSize = new Int32Array(leaders.length);
  for (const id of spec) specSize[id]! += 1;
  return {
    memoryMb: column((r) => r.memoryMb),
    vcpu: column((r) => r.vcpu),
    monthlyMicros,
    storageGb: column((r) => r.storageGb),
    spec,
    specLeaders: Int32Array.from(leaders),
    specSize,
  };
}
