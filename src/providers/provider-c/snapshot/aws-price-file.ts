// The recorded AWS EC2 prices of 2025-04-04 (data/sources/aws-ap-linux-2025-04-04.csv: AWS's
// website pricing JSON as recorded by ec2.shop, MIT), its dated change log since 2024-07-05
// (aws-ap-ondemand-history-2024-07-05_2025-04-04.csv) and the GPU counts the price file lacks
// (the 2024 recording, else aws-specs-sc-2026-01.csv). Read and checked row by row; a row that
// cannot be read completely stops the generator with its file, line and column. The price
// file's four No Upfront reserved columns are read by reserved-terms.ts, the one reader of them.
import {
  RecordedDataError,
  at,
  cell,
  choiceCell,
  decimalCell,
  readRecordedCsv,
  wholeCell,
} from '../../snapshot/recorded-csv.js';
import { AWS_REGIONS, type AwsRegion } from './aws-recording.js';

export const AWS_PRICE_FILE = 'aws-ap-linux-2025-04-04.csv';
export const AWS_HISTORY_FILE = 'aws-ap-ondemand-history-2024-07-05_2025-04-04.csv';
export const AWS_SPECS_FILE = 'aws-specs-sc-2026-01.csv';

/** `hawkFilePublicationDate` of every region file of the 2025 recording. */
export const AWS_PRICE_FILE_PUBLISHED_AT = '2025-04-04T22:41:22Z';

const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;
const RATE_CODE = /^([A-Z0-9]{16})\.JRTCKXETXF\.6YS6EN2CT7$/;
const MEMORY = /^(0|[1-9]\d{0,6})(\.\d{1,4})?$/;

export interface AwsPriceRow {
  readonly line: number;
  readonly region: AwsRegion;
  readonly instanceType: string;
  readonly currentGeneration: boolean;
  readonly vcpus: number;
  /** GiB as recorded ("0.613", "12288"). */
  readonly memoryGib: string;
  /** AWS's words ("EBS only", "2 x 1900 NVMe SSD"). */
  readonly storage: string;
  /** AWS's words ("Up to 12500 Megabit"); '' where the recording has none (previous generation). */
  readonly networkPerformance: string;
  /** USD per hour, as recorded. */
  readonly onDemandUsd: string;
  /** The real SKU, from AWS's on-demand rate code. */
  readonly sku: string;
}

const PRICE_COLUMNS = [
  'region',
  'instance_type',
  'generation',
  'vcpu',
  'memory_gib',
  'storage',
  'network_performance',
  'ondemand_usd_hour',
  'ondemand_rate_code',
] as const;

function instanceTypeCell(row: Parameters<typeof cell>[0], column: string): string {
  const text = cell(row, column);
  if (!INSTANCE_TYPE.test(text)) {
    throw new RecordedDataError(`${at(row, column)}: "${text}" is not a type`);
  }
  return text;
}

function refuseRepeats<T extends { line: number; region: string; instanceType: string }>(
  file: string,
  rows: readonly T[],
  key: (row: T) => string = (row) => `${row.region} ${row.instanceType}`,
): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    const first = seen.get(key(row));
    if (first !== undefined) {
      throw new RecordedDataError(`${file} line ${row.line}: ${key(row)} again (line ${first})`);
    }
    seen.set(key(row), row.line);
  }
}

/** Every row of the 2025 price file, checked; a region lists a type once. */
export async function readAwsPriceFile(file = AWS_PRICE_FILE): Promise<AwsPriceRow[]> {
  const rows = (await readRecordedCsv(file, PRICE_COLUMNS)).map((row): AwsPriceRow => {
    const memoryGib = cell(row, 'memory_gib');
    if (!MEMORY.test(memoryGib) || Number(memoryGib) <= 0) {
      throw new RecordedDataError(`${at(row, 'memory_gib')}: "${memoryGib}" is not GiB`);
    }
    const rate = RATE_CODE.exec(cell(row, 'ondemand_rate_code'));
    if (rate === null) {
      throw new RecordedDataError(`${at(row, 'ondemand_rate_code')}: not an on-demand rate code`);
    }
    return {
      line: row.line,
      region: choiceCell(row, 'region', AWS_REGIONS),
      instanceType: instanceTypeCell(row, 'instance_type'),
      currentGeneration: choiceCell(row, 'generation', ['current', 'previous']) === 'current',
      vcpus: wholeCell(row, 'vcpu', 1),
      memoryGib,
      storage: cell(row, 'storage'),
      networkPerformance: cell(row, 'network_performance', false),
      onDemandUsd: decimalCell(row, 'ondemand_usd_hour', true),
      sku: rate[1] ?? '',
    };
  });
  refuseRepeats(file, rows);
  refuseRepeats(file, rows, (row) => `SKU ${row.sku}`);
  return rows;
}

export interface AwsHistoryEvent {
  readonly line: number;
  readonly observedAt: string;
  readonly region: AwsRegion;
  readonly instanceType: string;
  readonly event: 'listed' | 'price_changed' | 'delisted';
  /** '' for a delisting. */
  readonly onDemandUsd: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The change log's events, in file order (each observation's events together, oldest first). */
export async function readAwsHistory(file = AWS_HISTORY_FILE): Promise<AwsHistoryEvent[]> {
  const columns = ['observed', 'region', 'instance_type', 'event', 'ondemand_usd_hour'];
  return (await readRecordedCsv(file, columns)).map((row) => {
    const observedAt = cell(row, 'observed');
    if (!ISO.test(observedAt)) {
      throw new RecordedDataError(`${at(row, 'observed')}: "${observedAt}" is not a UTC time`);
    }
    const event = choiceCell(row, 'event', ['listed', 'price_changed', 'delisted'] as const);
    return {
      line: row.line,
      observedAt,
      region: choiceCell(row, 'region', AWS_REGIONS),
      instanceType: instanceTypeCell(row, 'instance_type'),
      event,
      onDemandUsd:
        event === 'delisted'
          ? cell(row, 'ondemand_usd_hour', false)
          : decimalCell(row, 'ondemand_usd_hour', true),
    };
  });
}

/** GPU count per type from the Spare Cores spec dump (only the two columns this needs). */
export async function readAwsGpuCounts(file = AWS_SPECS_FILE): Promise<Map<string, number>> {
  const rows = await readRecordedCsv(file, ['instance_type', 'gpu_count']);
  const counts = new Map<string, number>();
  for (const row of rows) {
    const type = instanceTypeCell(row, 'instance_type');
    if (counts.has(type)) throw new RecordedDataError(`${file} line ${row.line}: ${type} again`);
    counts.set(type, wholeCell(row, 'gpu_count'));
  }
  return counts;
}
