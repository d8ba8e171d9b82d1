// The bundled spot advice (D61): data/sources/aws-spot-advisor-2025-06-28.csv (the AWS Spot
// Instance Advisor's Linux figures as recorded in alexei-led/spotinfo, Apache-2.0) written back
// in the feed's own layout, so the bundled file and a live PROVIDER_C_SPOT_ADVICE_URL are read by
// the same parser (spot-advice-feed.ts). Every band and savings figure is the recorded one; the
// `ranges` table is AWS's (index -> label, with the `dots` and `max` the feed publishes); the
// recording has no `instance_types` or `global_rate`, so the file has none. Offline and
// deterministic: same input, same bytes.
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  SPOT_INTERRUPTION_BANDS,
  type SpotInterruptionBand,
} from '../../../catalog/purchase-options.js';
import {
  RecordedDataError,
  at,
  cell,
  choiceCell,
  readRecordedCsv,
  wholeCell,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';
import { BUNDLED_SPOT_ADVICE } from '../spot-advice-provenance.js';
import { AWS_REGIONS, type AwsRegion } from './aws-recording.js';

export const SPOT_ADVICE_RECORDING_FILE = 'aws-spot-advisor-2025-06-28.csv';
const RECORDING_COMMIT = '5bdc33cee2e185c2f62df29dd9c4ad0ad7102a74';
const NOTICE_FILE = 'SPOT-ADVISOR-NOTICE.md';
const METADATA_FILE = 'spot-advisor-metadata.json';

/** AWS's ranges table as the feed publishes it: index, label, dots, max (percent). */
export const SPOT_ADVISOR_RANGES: readonly {
  readonly index: number;
  readonly label: SpotInterruptionBand;
  readonly dots: number;
  readonly max: number;
}[] = [
  { index: 0, label: '<5%', dots: 0, max: 5 },
  { index: 1, label: '5-10%', dots: 1, max: 11 },
  { index: 2, label: '10-15%', dots: 2, max: 16 },
  { index: 3, label: '15-20%', dots: 3, max: 22 },
  { index: 4, label: '>20%', dots: 4, max: 100 },
];

const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;
const COLUMNS = ['region', 'instance_type', 'interruption_band', 'savings_pct_vs_ondemand'];

export interface SpotAdvisorRow {
  readonly line: number;
  readonly region: AwsRegion;
  readonly instanceType: string;
  readonly band: SpotInterruptionBand;
  readonly savingsPct: number;
}

function readRow(row: CsvRow): SpotAdvisorRow {
  const instanceType = cell(row, 'instance_type');
  if (!INSTANCE_TYPE.test(instanceType)) {
    throw new RecordedDataError(`${at(row, 'instance_type')}: "${instanceType}" is not a type`);
  }
  const savingsPct = wholeCell(row, 'savings_pct_vs_ondemand');
  if (savingsPct > 100) {
    throw new RecordedDataError(`${at(row, 'savings_pct_vs_ondemand')}: ${savingsPct} is over 100`);
  }
  return {
    line: row.line,
    region: choiceCell(row, 'region', AWS_REGIONS),
    instanceType,
    band: choiceCell(row, 'interruption_band', SPOT_INTERRUPTION_BANDS),
    savingsPct,
  };
}

/** Every row, checked; a second row for one region and type stops it, naming both lines. */
export function spotAdvisorRows(rows: readonly CsvRow[]): SpotAdvisorRow[] {
  const seen = new Map<string, number>();
  return rows.map((csvRow) => {
    const row = readRow(csvRow);
    const key = `${row.region} ${row.instanceType}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new RecordedDataError(`${at(csvRow, 'instance_type')}: ${key} again (line ${first})`);
    }
    seen.set(key, row.line);
    return row;
  });
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The feed document for `rows`: regions and types in code order, Linux only. */
export function spotAdvisorDocumentText(rows: readonly SpotAdvisorRow[]): string {
  const indexOf = new Map(SPOT_ADVISOR_RANGES.map((r) => [r.label, r.index]));
  const regions = [...new Set(rows.map((r) => r.region))].sort(byText);
  const advisor: Record<string, { Linux: Record<string, { s: number; r: number }> }> = {};
  for (const region of regions) {
    const linux: Record<string, { s: number; r: number }> = {};
    for (const row of rows
      .filter((r) => r.region === region)
      .sort((a, b) => byText(a.instanceType, b.instanceType))) {
      linux[row.instanceType] = { s: row.savingsPct, r: indexOf.get(row.band) ?? -1 };
    }
    advisor[region] = { Linux: linux };
  }
  // One line per region keeps the file diffable and small (about 100 KB).
  const lines = regions.map(
    (region) => `    ${JSON.stringify(region)}: ${JSON.stringify(advisor[region])}`,
  );
  const ranges = SPOT_ADVISOR_RANGES.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  return `{\n  "ranges": [\n${ranges}\n  ],\n  "spot_advisor": {\n${lines.join(',\n')}\n  }\n}\n`;
}

function metadataText(rows: readonly SpotAdvisorRow[]): string {
  const perRegion = Object.fromEntries(
    AWS_REGIONS.map((region) => [region, rows.filter((r) => r.region === region).length]),
  );
  return `${JSON.stringify(
    {
      file: BUNDLED_SPOT_ADVICE.file,
      data_source: {
        observed_at: BUNDLED_SPOT_ADVICE.observedAt,
        source: BUNDLED_SPOT_ADVICE.source,
      },
      upstream: 'https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json',
      recorded_in: `alexei-led/spotinfo, commit ${RECORDING_COMMIT}, internal/spot/data/spot-advisor-data.json; kept in this repository as data/sources/${SPOT_ADVICE_RECORDING_FILE}`,
      licence: {
        name: BUNDLED_SPOT_ADVICE.licence,
        attribution: BUNDLED_SPOT_ADVICE.attribution,
        notice: NOTICE_FILE,
        scope: `${BUNDLED_SPOT_ADVICE.file}, this file and ${NOTICE_FILE}; the offer files beside them are under their own licence (DATA-LICENSE.md)`,
      },
      generated_by:
        'src/providers/provider-c/snapshot/spot-advisor.ts (npm run snapshots:generate)',
      records: rows.length,
      records_per_region: perRegion,
      figures:
        'Linux only: s is the recorded savings % against on-demand and r the index of the recorded interruption band in ranges (AWS labels <5%, 5-10%, 10-15%, 15-20%, >20%). Both are AWS figures as recorded, never turned into a price.',
      not_in_the_recording:
        'instance_types and global_rate (left out); the feed has no timestamp, so observed_at is the time the recording was committed, the latest possible fetch time',
      statement: `AWS Spot Instance Advisor figures as recorded on ${BUNDLED_SPOT_ADVICE.observedAt.slice(0, 10)}. PROVIDER_C_SPOT_ADVICE_URL=https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json reads the live feed instead.`,
    },
    null,
    2,
  )}\n`;
}

function noticeText(): string {
  return `# Notice: bundled AWS spot advice

\`${BUNDLED_SPOT_ADVICE.file}\` and \`${METADATA_FILE}\` in this directory are generated from
\`data/sources/${SPOT_ADVICE_RECORDING_FILE}\`: the AWS Spot Instance Advisor's Linux
interruption bands and savings figures, as recorded on ${BUNDLED_SPOT_ADVICE.observedAt.slice(0, 10)}.

Attribution: **${BUNDLED_SPOT_ADVICE.attribution}**.
Source: https://github.com/alexei-led/spotinfo, commit \`${RECORDING_COMMIT}\`,
\`internal/spot/data/spot-advisor-data.json\`, a recording of
https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json.

The repository it comes from is licensed under the Apache License, Version 2.0
(https://www.apache.org/licenses/LICENSE-2.0); it has no NOTICE file. Changes made: only the
Linux figures of five Asia Pacific regions are kept, written back in the feed's layout.
`;
}

export interface SpotAdvisorOptions {
  /** Keep only these rows (a test copy could hold a subset; the bundled file holds all). */
  readonly keep?: (row: SpotAdvisorRow) => boolean;
  /** The recording, for tests; default data/sources/aws-spot-advisor-2025-06-28.csv. */
  readonly file?: string;
}

/**
 * Writes the advice file, its metadata and its notice into `outDir` beside what is there (the
 * offer files' generator replaces the folder, so this runs after it). Returns the paths.
 */
export async function writeSpotAdvisorSnapshot(
  outDir: string,
  options: SpotAdvisorOptions = {},
): Promise<string[]> {
  const keep = options.keep ?? (() => true);
  const file = options.file ?? SPOT_ADVICE_RECORDING_FILE;
  const rows = spotAdvisorRows(await readRecordedCsv(file, COLUMNS)).filter(keep);
  const files: [string, string][] = [
    [BUNDLED_SPOT_ADVICE.file, spotAdvisorDocumentText(rows)],
    [METADATA_FILE, metadataText(rows)],
    [NOTICE_FILE, noticeText()],
  ];
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of files) await writeFile(path.join(outDir, name), text);
  return files.map(([name]) => name);
}
