// provider_d's dated recordings (D64) from the recorded change log of pricing.yml
// (data/sources/gcp-asia-history-2025-07-31_2026-07-30.csv): one recording per version of the
// file at which something changed in our regions, each complete (the log replayed up to it),
// with its on-demand, spot and committed-use prices. The log's replay must end exactly at the
// current recording (gcp-asia-compute-2026-07-30.csv): a difference stops the generator.
//
// Only the records the snapshot lists are written (offered in the region by Google's API, per the
// current recording, and a type it keeps): a priced-but-not-offered row would be replayed as a
// record that vanished at the current recording.
import type { RecordingInput } from '../../../catalog/dated-recordings.js';
import {
  RecordedDataError,
  at,
  canonicalDecimal,
  cell,
  choiceCell,
  readRecordedCsv,
} from '../../snapshot/recorded-csv.js';
import { monthlyMicrosOfHourlyText } from '../parse.js';

export const HISTORY_FILE = 'gcp-asia-history-2025-07-31_2026-07-30.csv';

const HISTORY_COLUMNS = [
  'observed',
  'region',
  'machine_type',
  'option',
  'event',
  'usd_hour',
] as const;

/** The log's option names -> ours (D61: committed use is `reserved_*`). */
const OPTIONS = {
  ondemand: 'on_demand',
  spot: 'spot',
  cud_1y: 'reserved_1y',
  cud_3y: 'reserved_3y',
} as const;
type LogOption = keyof typeof OPTIONS;
const LOG_OPTIONS = Object.keys(OPTIONS) as LogOption[];

/** A current price of the snapshot: the hourly text per option (null: not sold so). */
export interface CurrentPrices {
  readonly region: string;
  readonly id: string;
  readonly offered: boolean;
  readonly hour: string;
  readonly hour_spot: string | null;
  readonly cud_1y_hour: string | null;
  readonly cud_3y_hour: string | null;
}

const currentOf = (p: CurrentPrices): Record<LogOption, string | null> => ({
  ondemand: p.hour,
  spot: p.hour_spot,
  cud_1y: p.cud_1y_hour,
  cud_3y: p.cud_3y_hour,
});

/** Whole cents (as micro-dollars) as USD text, in integers: 62,750,000 -> "62.75". */
function centsText(micros: number): string {
  const cents = micros / 10_000;
  if (!Number.isSafeInteger(cents)) throw new RecordedDataError(`${micros} is not whole cents`);
  return canonicalDecimal(`${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
}

/** "2025-07-31 04:30:47Z" -> "2025-07-31T04:30:47Z". */
function isoOf(observed: string): string | null {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/.test(observed)
    ? observed.replace(' ', 'T')
    : null;
}

const key = (region: string, id: string, option: LogOption) => `${region} ${id} ${option}`;

/**
 * The recordings before the current one, oldest first. `current` is every priced row of the
 * current recording (the replay is checked against all of them); `price` reads a log price as the
 * snapshot writes prices (canonical text), `observedAt` is the current recording's time.
 */
export async function gceDatedRecordings(
  current: readonly CurrentPrices[],
  listed: (region: string, id: string) => boolean,
  price: (row: Parameters<typeof cell>[0], column: string) => string,
  observedAt: string,
): Promise<{ recordings: RecordingInput[]; changes: Record<LogOption, number> }> {
  const log = await readRecordedCsv(HISTORY_FILE, HISTORY_COLUMNS);
  const state = new Map<string, string>();
  const changes: Record<LogOption, number> = { ondemand: 0, spot: 0, cud_1y: 0, cud_3y: 0 };
  const recordings: RecordingInput[] = [];
  let time: string | undefined;
  const snapshot = () => {
    if (time === undefined) return;
    const rows = (option: LogOption) =>
      current
        .filter((p) => p.offered && listed(p.region, p.id))
        .flatMap((p) => {
          const text = state.get(key(p.region, p.id, option));
          return text === undefined ? [] : [[p.region, p.id, text] as const];
        });
    recordings.push({
      observedAt: time,
      source: `Google Cloud Billing Catalog API prices as recorded in Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml (about.generated ${time.replace('T', ' ')})`,
      // On-demand monthly: the recorded text x 730 exactly, as the adapter computes it.
      prices: rows('ondemand').map(
        ([region, id, hour]) =>
          [region, id, hour, centsText(monthlyMicrosOfHourlyText(hour))] as const,
      ),
      options: { spot: rows('spot'), reserved_1y: rows('cud_1y'), reserved_3y: rows('cud_3y') },
    });
  };
  for (const row of log) {
    const observed = isoOf(cell(row, 'observed'));
    if (observed === null) throw new RecordedDataError(`${at(row, 'observed')}: not a UTC time`);
    if (time !== undefined && observed < time) {
      throw new RecordedDataError(`${at(row, 'observed')}: the log is not oldest first`);
    }
    if (observed >= observedAt) {
      throw new RecordedDataError(`${at(row, 'observed')}: not before the current recording`);
    }
    if (observed !== time) snapshot();
    time = observed;
    const option = choiceCell(row, 'option', LOG_OPTIONS);
    const event = choiceCell(row, 'event', ['listed', 'price_changed', 'delisted']);
    const k = key(cell(row, 'region'), cell(row, 'machine_type'), option);
    const had = state.has(k);
    if (event === 'delisted') {
      if (!had) throw new RecordedDataError(`${at(row, 'event')}: delisted but never listed`);
      state.delete(k);
      continue;
    }
    if ((event === 'listed') === had) {
      throw new RecordedDataError(`${at(row, 'event')}: ${event} does not follow the log before`);
    }
    state.set(k, price(row, 'usd_hour'));
    if (event === 'price_changed') changes[option] += 1;
  }
  snapshot();
  // The replayed log must be the current recording, price for price.
  const want = new Map<string, string>();
  for (const p of current) {
    for (const [option, text] of Object.entries(currentOf(p)) as [LogOption, string | null][]) {
      if (text !== null) want.set(key(p.region, p.id, option), text);
    }
  }
  const wrong = [...new Set([...want.keys(), ...state.keys()])].filter(
    (k) => want.get(k) !== state.get(k),
  );
  if (wrong.length > 0) {
    throw new RecordedDataError(
      `${HISTORY_FILE}: replayed, it differs from the current recording at ${wrong.length} price(s), e.g. ${wrong.slice(0, 3).join('; ')}`,
    );
  }
  return { recordings, changes };
}
