// The recorded AWS EC2 on-demand Linux prices (data/sources/aws-ap-ondemand-linux-2024-02-21.csv,
// Spare Cores sc-data, CC BY-SA 4.0), read and checked row by row. Every value the provider_c
// snapshot states about an instance comes from one of these rows; a row the generator cannot
// read completely stops it with the file, line and column.
import {
  RecordedDataError,
  at,
  cell,
  choiceCell,
  decimalCell,
  readRecordedCsv,
  wholeCell,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';

export const AWS_RECORDING_FILE = 'aws-ap-ondemand-linux-2024-02-21.csv';

/** When Spare Cores crawled the AWS Price List API for this recording (the file's observed_at). */
export const AWS_OBSERVED_AT = '2024-02-21T08:20:21Z';

export const AWS_REGIONS = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-east-1',
] as const;
export type AwsRegion = (typeof AWS_REGIONS)[number];

const COLUMNS = [
  'region',
  'instance_type',
  'vcpus',
  'memory_mib',
  'cpu_arch',
  'cpu_manufacturer',
  'gpu_count',
  'gpu_name',
  'storage_gb',
  'storage_type',
  'network_gbps',
  'price_usd_per_hour',
  'observed_at',
] as const;

const ARCHITECTURES = ['X86_64', 'ARM64', 'I386'] as const;
const STORAGE_TYPES = ['', 'NVME_SSD', 'SSD', 'HDD'] as const;
const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;

export interface AwsRecordedRow {
  readonly line: number;
  readonly region: AwsRegion;
  readonly instanceType: string;
  readonly vcpus: number;
  readonly memoryMib: number;
  readonly cpuArch: (typeof ARCHITECTURES)[number];
  readonly cpuManufacturer: string;
  readonly gpuCount: number;
  /** Empty when gpuCount is 0. */
  readonly gpuName: string;
  /** Local instance storage in GB; 0 = EBS only. */
  readonly storageGb: number;
  /** '' exactly when storageGb is 0. */
  readonly storageType: (typeof STORAGE_TYPES)[number];
  /** Baseline network bandwidth in Gbps, as recorded ("12.0", "0.032"). */
  readonly networkGbps: string;
  /** USD per hour, exactly as recorded ("0.0052", "2.592"). */
  readonly priceUsdPerHour: string;
}

function readRow(row: CsvRow): AwsRecordedRow {
  const region = choiceCell(row, 'region', AWS_REGIONS);
  const instanceType = cell(row, 'instance_type');
  if (!INSTANCE_TYPE.test(instanceType)) {
    throw new RecordedDataError(`${at(row, 'instance_type')}: "${instanceType}" is not a type`);
  }
  const gpuCount = wholeCell(row, 'gpu_count');
  const gpuName = cell(row, 'gpu_name', false);
  if (gpuCount > 0 !== (gpuName !== '')) {
    throw new RecordedDataError(
      `${at(row, 'gpu_name')}: "${gpuName}" with gpu_count ${gpuCount} (a name exactly when there are GPUs)`,
    );
  }
  const storageGb = wholeCell(row, 'storage_gb');
  const storageType = choiceCell(row, 'storage_type', STORAGE_TYPES);
  if (storageGb > 0 !== (storageType !== '')) {
    throw new RecordedDataError(
      `${at(row, 'storage_type')}: "${storageType}" with storage_gb ${storageGb} (a type exactly when there is local storage)`,
    );
  }
  const observedAt = cell(row, 'observed_at');
  if (observedAt.replace(' ', 'T') !== AWS_OBSERVED_AT) {
    throw new RecordedDataError(
      `${at(row, 'observed_at')}: "${observedAt}", every row of this recording was observed at ${AWS_OBSERVED_AT}`,
    );
  }
  return {
    line: row.line,
    region,
    instanceType,
    vcpus: wholeCell(row, 'vcpus', 1),
    memoryMib: wholeCell(row, 'memory_mib', 1),
    cpuArch: choiceCell(row, 'cpu_arch', ARCHITECTURES),
    cpuManufacturer: cell(row, 'cpu_manufacturer'),
    gpuCount,
    gpuName,
    storageGb,
    storageType,
    networkGbps: decimalCell(row, 'network_gbps', true),
    priceUsdPerHour: decimalCell(row, 'price_usd_per_hour', true),
  };
}

/** Every row, checked; also refuses a second row for the same region and type. */
export async function readAwsRecording(file = AWS_RECORDING_FILE): Promise<AwsRecordedRow[]> {
  const rows = (await readRecordedCsv(file, COLUMNS)).map(readRow);
  const seen = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.region} ${row.instanceType}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new RecordedDataError(
        `${file} line ${row.line}: ${key} again (first on line ${first}); a region lists a type once`,
      );
    }
    seen.set(key, row.line);
  }
  return rows;
}
