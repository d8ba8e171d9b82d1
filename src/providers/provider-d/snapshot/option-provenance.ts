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

/** What the bundled snapshot's recordings.json holds, for its metadata. */
export interface RecordingsSummary {
  readonly text: string;
  readonly count: number;
  readonly first: string;
  readonly last: string;
  readonly logChanges: Readonly<Record<string, number>>;
}

/** metadata.json's `dated_recordings_note`: what `file` holds, from `historyFile`. */
export function recordingsNote(r: RecordingsSummary, file: string, historyFile: string): string {
  const { changes: written, subMicro } = recordedChanges(r.text);
  const n = (option: string) => (written[option] ?? 0).toLocaleString('en-US');
  const noise = Object.entries(subMicro)
    .map(([option, count]) => `${option} ${count}`)
    .join(', ');
  const log = r.logChanges;
  return `${file} holds ${r.count} earlier recordings (${r.first} to ${r.last}): each version of pricing.yml at which something changed in our five regions, from data/sources/${historyFile}, with on-demand, spot and committed-use prices; the first fill replays them oldest first (D64), each option apart (D61). Only the records this snapshot lists are written (offered in the region, a type it keeps). Price changes replayed (in micro-dollars): on_demand ${n('on_demand')}, spot ${n('spot')}, reserved_1y ${n('reserved_1y')}, reserved_3y ${n('reserved_3y')} (the log, all priced rows: ondemand ${log['ondemand']}, spot ${log['spot']}, cud_1y ${log['cud_1y']}, cud_3y ${log['cud_3y']}); recorded changes below a micro-dollar (arithmetic noise in the 14th decimal of a3 prices), which change nothing: ${noise === '' ? 'none' : noise}. The on-demand and committed-use changes all fall on off-schedule rebuilds after fixes to the calculator (2025-11-21, 2026-02-20, 2026-03-25, 2026-05-16): corrections at least as much as Google list-price moves (docs/purchase-options.md). The log's other 22 weekly versions changed nothing here and add no history.`;
}
