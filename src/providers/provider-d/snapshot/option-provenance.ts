// provider_d's metadata.json parts about purchase options (D37, D61) and its dated recordings
// (D64): where each option's figures come from, when they were observed, under which licence,
// and what the recordings before the snapshot hold. Nothing reads these at run time.
import {
  parseDatedRecordings,
  recordKey,
  type DatedRecording,
  type RecordedListing,
} from '../../../catalog/dated-recordings.js';
import type { OtherPurchaseOption } from '../../../catalog/purchase-options.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A written price row (prices.json) with its region. */
export interface WrittenPrice {
  readonly region: string;
  readonly doc: {
    readonly offered: boolean;
    readonly hour_spot: string | null;
    readonly cud_1y_hour: string | null;
    readonly cud_3y_hour: string | null;
  };
}

const COLUMNS = {
  on_demand: ['hour', 'ondemand_usd_hour', 'cost.<region>.hour: on-demand'],
  spot: ['hour_spot', 'spot_usd_hour', 'cost.<region>.hour_spot: Spot VMs'],
  reserved_1y: [
    'cud_1y_hour',
    'cud_1y_usd_hour',
    'cost.<region>.month_1y / 730: resource-based committed use, 1 year',
  ],
  reserved_3y: [
    'cud_3y_hour',
    'cud_3y_usd_hour',
    'cost.<region>.month_3y / 730: resource-based committed use, 3 years',
  ],
} as const;

export function optionProvenance(
  prices: readonly WrittenPrice[],
  common: { source: string; observed_at: string; attribution: string; computeFile: string },
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [option, [field, column, meaning]] of Object.entries(COLUMNS)) {
    const has = (p: WrittenPrice) => field === 'hour' || p.doc[field] !== null;
    out[option] = {
      source: common.source,
      observed_at: common.observed_at,
      licence: 'Apache-2.0',
      attribution: common.attribution,
      notice: 'NOTICE.md',
      recorded_in: `data/sources/${common.computeFile}, column ${column} (pricing.yml ${meaning})`,
      field: `prices.json ${field}`,
      region_prices: prices.filter(has).length,
      listed: prices.filter((p) => p.doc.offered && has(p)).length,
    };
  }
  return out;
}

/**
 * Per option, the price changes (not additions) of listed records that `recordings` hold, as the
 * replay sees them (in micro-dollars); `subMicro` counts the recorded changes below a
 * micro-dollar (pricing.yml arithmetic noise in the 14th decimal), which change nothing.
 */
export function recordedChanges(text: string): {
  changes: Record<string, number>;
  subMicro: Record<string, number>;
} {
  const recordings: DatedRecording[] = parseDatedRecordings(JSON.parse(text));
  const changes: Record<string, number> = {};
  const subMicro: Record<string, number> = {};
  const known = new Map<string, Map<string, number>>();
  const count = (option: string, entries: readonly RecordedListing[]) => {
    const seen = known.get(option) ?? new Map<string, number>();
    for (const e of entries) {
      const key = recordKey(e.regionCode, e.instanceId);
      const before = seen.get(key);
      if (before === e.hourlyMicros) subMicro[option] = (subMicro[option] ?? 0) + 1;
      else if (before !== undefined) changes[option] = (changes[option] ?? 0) + 1;
      seen.set(key, e.hourlyMicros);
    }
    known.set(option, seen);
  };
  for (const r of recordings) {
    count('on_demand', r.listed);
    for (const [option, log] of Object.entries(r.options ?? {}) as [
      OtherPurchaseOption,
      { listed: readonly RecordedListing[] },
    ][]) {
      count(option, log.listed);
    }
  }
  return { changes, subMicro };
}
