// provider_d's bundled snapshot (data/snapshots/provider_d/, layout in ../schema.ts) from the
// recorded figures in data/sources/: gcp-asia-compute-2026-07-30.csv (prices per region and
// machine type, with whether Google's API offers the type there) and
// gcp-machine-types-2026-03-22.csv (API vCPUs and machine facts). Offline and deterministic;
// a cell that is not what its column holds stops the generator naming the file, row and column.
// Every priced row is kept with its `offered` flag (the adapter lists only offered ones), with
// its spot and committed-use prices (the purchase options, D61). The bundled snapshot also
// carries the year of weekly recordings before it as dated recordings (D64, history.ts).
import { copyFile, readFile } from 'node:fs/promises';
import { formatDatedRecordings, type RecordingInput } from '../../../catalog/dated-recordings.js';
import path from 'node:path';
import {
  RecordedDataError,
  SOURCES_DIR,
  at,
  canonicalDecimal,
  cell,
  choiceCell,
  decimalCell,
  readRecordedCsv,
  wholeCell,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';
import {
  runWhenInvoked,
  writeSnapshotFiles,
  type SnapshotFile,
} from '../../snapshot/snapshot-output.js';
import { PROVIDER_D_NAME, PROVIDER_D_REGIONS } from '../regions.js';
import { gceDatedRecordings, HISTORY_FILE, type CurrentPrices } from './history.js';
import { optionProvenance, recordingsNote, type RecordingsSummary } from './option-provenance.js';

export const COMPUTE_FILE = 'gcp-asia-compute-2026-07-30.csv';
export const MACHINE_TYPES_FILE = 'gcp-machine-types-2026-03-22.csv';
export const NOTICE_FILE = 'NOTICE.md';
export const LICENCE_FILE = 'LICENSE-Apache-2.0.txt';
export const RECORDINGS_FILE = 'recordings.json';
/** `about.generated` of the recorded pricing.yml (README-gcp.md). */
export const OBSERVED_AT = '2026-07-30T06:13:17Z';

const COMPUTE_COLUMNS = [
  'region',
  'machine_type',
  'memory_gib',
  'gpu_count',
  'ondemand_usd_hour',
  'spot_usd_hour',
  'cud_1y_usd_hour',
  'cud_3y_usd_hour',
  'in_gce_api_region',
  'observed_at',
] as const;
const TYPE_COLUMNS = [
  'machine_type',
  'cpu_architecture',
  'cpu_platform',
  'shared_core',
  'api_vcpus',
  'gpu_model',
  'gpu_count',
  'local_ssd_gb',
  'egress_bandwidth_gbps',
  'coremark',
] as const;

/** The machine types of the fixture copy: each rule of the adapter at least once. */
const FIXTURE_TYPES = new Set([
  'e2-micro',
  'e2-medium',
  'e2-standard-2',
  'f1-micro',
  'n2-standard-2',
  'n4-standard-2',
  'c2-standard-4',
  'c3d-standard-4',
  'h3-standard-88',
  't2a-standard-1',
  'c4a-standard-1',
  'm1-megamem-96',
  'z3-highmem-14-standardlssd',
  'a2-highgpu-1g',
  'g2-standard-4',
]);

interface MachineTypeDoc {
  readonly id: string;
  readonly vcpu: number;
  readonly memory_gib: string;
  readonly gpu_count: number;
  readonly gpu_model: string | null;
  readonly local_ssd_gb: number;
  readonly egress_gbps: number | null;
  readonly cpu_architecture: 'x86_64' | 'arm64' | null;
  readonly cpu_platform: string | null;
  readonly shared_core: boolean | null;
  readonly coremark: number | null;
}

interface PriceDoc {
  readonly region: string;
  readonly doc: {
    readonly id: string;
    readonly offered: boolean;
    readonly hour: string;
    readonly hour_spot: string | null;
    readonly cud_1y_hour: string | null;
    readonly cud_3y_hour: string | null;
  };
}

const orNull = (row: CsvRow, column: string): string | null => {
  const text = cell(row, column, false).trim();
  return text === '' ? null : text;
};

/** pricing.yml's prices carry up to 16 decimals: kept as text. */
const PRICE = /^(0|[1-9]\d{0,5})(\.\d{1,18})?$/;

export function priceCell(row: CsvRow, column: string): string {
  const text = cell(row, column);
  if (!PRICE.test(text) || /^0(\.0+)?$/.test(text)) {
    throw new RecordedDataError(`${at(row, column)}: "${text}" is not a positive price`);
  }
  return canonicalDecimal(text);
}

const optionalPrice = (row: CsvRow, column: string): string | null =>
  orNull(row, column) === null ? null : priceCell(row, column);

/** Why a recorded type is not in the snapshot, or null when it is. */
function leftOutBecause(compute: CsvRow, facts: CsvRow | undefined): string | null {
  if (facts === undefined || cell(facts, 'api_vcpus', false) === '') {
    return 'not in the GCE API machine-type export (no vCPU count as Google states it)';
  }
  if (!/^\d+$/.test(cell(compute, 'gpu_count'))) {
    return `a fractional GPU count (${cell(compute, 'gpu_count')}), which the API's whole gpu_count cannot hold`;
  }
  return null;
}

function machineTypeDoc(compute: CsvRow, facts: CsvRow): MachineTypeDoc {
  const gpuCount = wholeCell(compute, 'gpu_count');
  const arch = choiceCell(facts, 'cpu_architecture', ['x86_64', 'arm64', '']);
  const shared = choiceCell(facts, 'shared_core', ['true', 'false', '']);
  const egress = orNull(facts, 'egress_bandwidth_gbps');
  const coremark = orNull(facts, 'coremark');
  const gpuModel = orNull(facts, 'gpu_model');
  if (gpuCount > 0 && gpuModel === null) {
    throw new RecordedDataError(`${at(facts, 'gpu_model')}: a GPU type without its model`);
  }
  return {
    id: cell(compute, 'machine_type'),
    vcpu: wholeCell(facts, 'api_vcpus', 1),
    memory_gib: canonicalDecimal(decimalCell(compute, 'memory_gib', true)),
    gpu_count: gpuCount,
    gpu_model: gpuCount > 0 ? gpuModel : null,
    local_ssd_gb: wholeCell(facts, 'local_ssd_gb'),
    egress_gbps: egress === null ? null : Number(decimalCell(facts, 'egress_bandwidth_gbps', true)),
    cpu_architecture: arch === '' ? null : arch,
    cpu_platform: orNull(facts, 'cpu_platform'),
    shared_core: shared === '' ? null : shared === 'true',
    coremark: coremark === null ? null : wholeCell(facts, 'coremark', 1),
  };
}

interface Recorded {
  readonly types: readonly MachineTypeDoc[];
  readonly prices: readonly PriceDoc[];
  readonly leftOut: readonly string[];
  /** Every priced row of the recording, left-out types included (the history's check). */
  readonly everyPrice: readonly CurrentPrices[];
}

async function readGceRecordings(): Promise<Recorded> {
  const compute = await readRecordedCsv(COMPUTE_FILE, COMPUTE_COLUMNS);
  const factRows = await readRecordedCsv(MACHINE_TYPES_FILE, TYPE_COLUMNS);
  const facts = new Map(factRows.map((row) => [cell(row, 'machine_type'), row]));
  const regions = new Set(PROVIDER_D_REGIONS.map((r) => r.upstreamId ?? r.regionCode));
  const types = new Map<string, MachineTypeDoc>();
  const leftOut = new Map<string, string>();
  const prices: PriceDoc[] = [];
  const everyPrice: CurrentPrices[] = [];
  const seen = new Set<string>();
  for (const row of compute) {
    const region = cell(row, 'region');
    const id = cell(row, 'machine_type');
    if (!regions.has(region)) throw new RecordedDataError(`${at(row, 'region')}: not one of ours`);
    if (cell(row, 'observed_at') !== '2026-07-30 06:13:17Z') {
      throw new RecordedDataError(`${at(row, 'observed_at')}: not the recording's time`);
    }
    const key = `${region} ${id}`;
    if (seen.has(key)) throw new RecordedDataError(`${at(row, 'machine_type')}: ${key} twice`);
    seen.add(key);
    const doc = {
      id,
      offered: choiceCell(row, 'in_gce_api_region', ['true', 'false']) === 'true',
      hour: priceCell(row, 'ondemand_usd_hour'),
      hour_spot: optionalPrice(row, 'spot_usd_hour'),
      cud_1y_hour: optionalPrice(row, 'cud_1y_usd_hour'),
      cud_3y_hour: optionalPrice(row, 'cud_3y_usd_hour'),
    };
    everyPrice.push({ region, ...doc });
    const reason = leftOutBecause(row, facts.get(id));
    if (reason !== null) {
      leftOut.set(id, reason);
      continue;
    }
    if (!types.has(id)) types.set(id, machineTypeDoc(row, facts.get(id)!));
    prices.push({ region, doc });
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    types: [...types.values()].sort(byId),
    prices,
    leftOut: [...leftOut].sort().map(([id, why]) => `${id}: ${why}`),
    everyPrice,
  };
}

function linesOf(key: string, records: readonly unknown[], indent: string): string {
  if (records.length === 0) return `${JSON.stringify(key)}: []`;
  const lines = records.map((r) => `${indent}  ${JSON.stringify(r)}`);
  return `${JSON.stringify(key)}: [\n${lines.join(',\n')}\n${indent}]`;
}

function pricesText(prices: readonly PriceDoc[]): string {
  const regions = PROVIDER_D_REGIONS.map((r) => r.upstreamId ?? r.regionCode).map((id) => {
    const docs = prices.filter((p) => p.region === id).map((p) => p.doc);
    return `    {"id": ${JSON.stringify(id)}, ${linesOf('prices', docs, '    ')}}`;
  });
  return `{\n  "regions": [\n${regions.join(',\n')}\n  ]\n}\n`;
}

const SOURCE =
  'Google Cloud Billing Catalog API prices as recorded in Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml @ fd66b26 (2026-07-30); machine types: GCE API export and Cyclenerd/google-cloud-compute-machine-types';
const PRICE_ATTRIBUTION =
  'Contains data from Cyclenerd/google-cloud-pricing-cost-calculator, Copyright 2022-2025 Nils Knieling, Apache License 2.0 (prices from the Google Cloud Billing Catalog API); filtered and reshaped';

function metadataText(
  recorded: Recorded,
  fixture: boolean,
  recordings: RecordingsSummary | undefined,
): string {
  const offered = recorded.prices.filter((p) => p.doc.offered).length;
  const metadata = {
    provider: PROVIDER_D_NAME,
    data_source: { observed_at: OBSERVED_AT, source: SOURCE },
    ...(recordings === undefined ? {} : { dated_recordings: RECORDINGS_FILE }),
    upstream:
      'Google Cloud Billing Catalog API SKUs, reshaped weekly into pricing.yml by Cyclenerd/google-cloud-pricing-cost-calculator (build/pricing.pl); no keyless price file exists, so this layout is the upstream (PROVIDER_D_URL: this directory or an HTTP(S) mirror of it)',
    recorded_in: [
      `prices: data/sources/${COMPUTE_FILE} (pricing.yml @ fd66b26ff84fee5cdd94f341ea89206e76c06b99, about.generated 2026-07-30 06:13:17 UTC; in_gce_api_region from tools/machinetyperegion.csv of the same commit)`,
      `machine types: data/sources/${MACHINE_TYPES_FILE} (Cyclenerd/google-cloud-compute-machine-types @ 6df0dc708acd757a325024ea0508e1b32850533d; API vCPUs and shared-core flags from tools/machinetypes.csv @ fd66b26)`,
    ],
    observed_at: OBSERVED_AT,
    licence: {
      name: 'Apache-2.0 (see NOTICE.md and LICENSE-Apache-2.0.txt beside this file)',
      attribution:
        'Contains data from Cyclenerd/google-cloud-pricing-cost-calculator, Copyright 2022-2025 Nils Knieling, Apache License 2.0 (prices from the Google Cloud Billing Catalog API); machine-type facts from Cyclenerd/google-cloud-compute-machine-types (Apache License 2.0); CoreMark scores from Google Cloud\'s "Benchmarks for Linux VM instances" page (CC BY 4.0); filtered and reshaped',
    },
    generated_by: 'src/providers/provider-d/snapshot/generate.ts (npm run snapshots:generate)',
    counts: {
      machine_types: recorded.types.length,
      priced_rows: recorded.prices.length,
      offered_rows: offered,
    },
    purchase_options: optionProvenance(recorded.prices, {
      source: SOURCE,
      observed_at: OBSERVED_AT,
      attribution: PRICE_ATTRIBUTION,
      computeFile: COMPUTE_FILE,
    }),
    prices:
      "hour is the recorded on-demand USD/hour (Linux, vCPU + RAM + GPU + bundled Local SSD; no boot disk, licence or network); hour_spot is the Spot VM USD/hour, cud_1y_hour/cud_3y_hour the resource-based committed-use USD/hour (month_1y/3y / 730, as recorded), null where the type is not sold so (f1-micro and g1-small: the calculator's committed-use figures are fallbacks, not prices). Every option's monthly is hourly x 730 (D61); the recorded sustained-use monthly figure is never used. A row with offered false is priced by Google but not offered in that region by its API, and is not listed.",
    ...(recordings === undefined
      ? {}
      : { dated_recordings_note: recordingsNote(recordings, RECORDINGS_FILE, HISTORY_FILE) }),
    left_out: recorded.leftOut,
    ...(fixture
      ? { fixture: `test copy: machine types ${[...FIXTURE_TYPES].sort().join(', ')}` }
      : {}),
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

async function noticeText(): Promise<string> {
  return readFile(path.join(SOURCES_DIR, 'NOTICE-gcp.md'), 'utf8');
}

async function recordingsOf(recorded: Recorded): Promise<RecordingsSummary> {
  const listed = new Set(
    recorded.prices.filter((p) => p.doc.offered).map((p) => `${p.region} ${p.doc.id}`),
  );
  const { recordings, changes } = await gceDatedRecordings(
    recorded.everyPrice,
    (region, id) => listed.has(`${region} ${id}`),
    priceCell,
    OBSERVED_AT,
  );
  const times = recordings.map((r: RecordingInput) => r.observedAt.slice(0, 10));
  return {
    text: formatDatedRecordings(recordings),
    count: recordings.length,
    first: times[0] ?? '',
    last: times.at(-1) ?? '',
    logChanges: changes,
  };
}

/** Writes the snapshot under `outDir` (all recorded types, or the fixture's few); returns names. */
export async function generateProviderDSnapshot(
  outDir: string,
  fixture = false,
): Promise<string[]> {
  const all = await readGceRecordings();
  const recorded: Recorded = fixture
    ? {
        types: all.types.filter((t) => FIXTURE_TYPES.has(t.id)),
        prices: all.prices.filter((p) => FIXTURE_TYPES.has(p.doc.id)),
        leftOut: all.leftOut,
        everyPrice: all.everyPrice,
      }
    : all;
  // The test copy carries no recordings (as provider_c's): its first fill stays a plain sync.
  const recordings = fixture ? undefined : await recordingsOf(recorded);
  const files: SnapshotFile[] = [
    ['machine-types.json', `{\n  ${linesOf('machine_types', recorded.types, '  ')}\n}\n`],
    ['prices.json', pricesText(recorded.prices)],
    ['metadata.json', metadataText(recorded, fixture, recordings)],
    [NOTICE_FILE, await noticeText()],
  ];
  if (recordings !== undefined) files.push([RECORDINGS_FILE, recordings.text]);
  const written = await writeSnapshotFiles(outDir, files);
  await copyFile(path.join(SOURCES_DIR, LICENCE_FILE), path.join(outDir, LICENCE_FILE));
  return [...written, LICENCE_FILE];
}

runWhenInvoked(import.meta.url, PROVIDER_D_NAME, generateProviderDSnapshot);
