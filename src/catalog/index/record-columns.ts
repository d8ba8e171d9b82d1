// The numbers a ranking reads of every record, as columns in the order of a list of records.
// Walking thousands of row objects spread over the heap costs a cache miss a record; these
// arrays are contiguous, so a pass over every record reads them and touches a row object only
// for the few records it keeps. Invariant: entry i of each column is records[i]'s field.
import type { InstanceRow } from '../records.js';

export interface RecordColumns {
  readonly memoryMb: Float64Array;
  readonly vcpu: Float64Array;
  readonly monthlyMicros: Float64Array;
  readonly storageGb: Float64Array;
}

type Numbers = Pick<InstanceRow, 'memoryMb' | 'vcpu' | 'monthlyMicros' | 'storageGb'>;

/** The columns of `records`, in their order. */
export function recordColumns(records: readonly Numbers[]): RecordColumns {
  const column = (read: (row: Numbers) => number) => Float64Array.from(records, read);
  return {
    memoryMb: column((r) => r.memoryMb),
    vcpu: column((r) => r.vcpu),
    monthlyMicros: column((r) => r.monthlyMicros),
    storageGb: column((r) => r.storageGb),
  };
}
