// Dated recordings (D64): a bundled snapshot may carry earlier recordings of its provider's
// prices beside its current upstream files, so a first fill can replay the provider's history
// at the recordings' own dates. The format is ours and the same for every provider (one JSON
// file named by the snapshot's metadata.json, `dated_recordings`):
//
//   { "format": "cloudprice-dated-recordings-1",
//     "recordings": [ { "observed_at": ISO, "source": text,
//                       "listed": [ [region, instance id, hourly USD (, monthly USD)], ... ],
//                       "delisted": [ [region, instance id], ... ] }, ... ] }
//
// Oldest first. The first recording lists everything it held; each later one is a change log
// against the one before: `listed` names records new or re-priced at that recording, `delisted`
// records it no longer held. Region codes are ours (section 4.5). Prices are the recorded text;
// monthly, when not given, is hourly x 730 (D36). The snapshot's current files are the newest
// recording (at its metadata's observed_at) and are not repeated here. Pure: parse and format.
import { decimalToMicros, monthlyMicrosFromHourly } from './money.js';

export const DATED_RECORDINGS_FORMAT = 'cloudprice-dated-recordings-1';

/** Bounds on an untrusted file: far above a year of weekly recordings of any provider. */
const MAX_RECORDINGS = 1_000;
const MAX_ENTRIES = 2_000_000;
const MAX_TEXT = 400;
const MAX_CODE = 100;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export interface RecordedListing {
  readonly regionCode: string;
  readonly instanceId: string;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
}

export interface RecordedDelisting {
  readonly regionCode: string;
  readonly instanceId: string;
}

/** One dated recording, as a change log against the one before (the first: everything). */
export interface DatedRecording {
  readonly observedAt: Date;
  readonly source: string;
  readonly listed: readonly RecordedListing[];
  readonly delisted: readonly RecordedDelisting[];
}

export class DatedRecordingsError extends Error {
  override readonly name = 'DatedRecordingsError';
}

function fail(message: string): never {
  throw new DatedRecordingsError(message);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function code(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CODE) {
    fail(`${where}: not a region or instance id`);
  }
  return value;
}

function usd(value: unknown, where: string): number {
  const micros = typeof value === 'string' ? decimalToMicros(value) : null;
  if (micros === null || micros <= 0) fail(`${where}: not a positive USD price`);
  return micros;
}

function listing(entry: unknown, where: string): RecordedListing {
  if (!Array.isArray(entry) || entry.length < 3 || entry.length > 4) {
    fail(`${where}: expected [region, instance id, hourly USD(, monthly USD)]`);
  }
  const hourlyMicros = usd(entry[2], where);
  return {
    regionCode: code(entry[0], where),
    instanceId: code(entry[1], where),
    hourlyMicros,
    monthlyMicros:
      entry.length === 4 ? usd(entry[3], where) : monthlyMicrosFromHourly(hourlyMicros),
  };
}

function delisting(entry: unknown, where: string): RecordedDelisting {
  if (!Array.isArray(entry) || entry.length !== 2) fail(`${where}: expected [region, instance id]`);
  return { regionCode: code(entry[0], where), instanceId: code(entry[1], where) };
}

function entries(value: unknown, where: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${where}: not a list`);
  return value;
}

/**
 * The recordings of a parsed dated-recordings file, oldest first, checked: the format name,
 * strictly increasing whole-second UTC times, a source text each, well-formed entries, no
 * record twice in one recording, nothing delisted in the first. Throws DatedRecordingsError.
 */
export function parseDatedRecordings(document: unknown): DatedRecording[] {
  if (!isObject(document) || document['format'] !== DATED_RECORDINGS_FORMAT) {
    fail(`not a ${DATED_RECORDINGS_FORMAT} document`);
  }
  const list = document['recordings'];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_RECORDINGS) {
    fail(`recordings: expected 1 to ${MAX_RECORDINGS} recordings`);
  }
  const out: DatedRecording[] = [];
  let total = 0;
  for (const [index, item] of list.entries()) {
    const where = `recordings[${index}]`;
    if (!isObject(item)) fail(`${where}: not an object`);
    const observed = item['observed_at'];
    const source = item['source'];
    if (typeof observed !== 'string' || !ISO_DATE_TIME.test(observed)) {
      fail(`${where}.observed_at: expected YYYY-MM-DDThh:mm:ssZ`);
    }
    const observedAt = new Date(observed);
    if (!Number.isFinite(observedAt.getTime())) fail(`${where}.observed_at: not a date`);
    const previous = out.at(-1);
    if (previous !== undefined && observedAt.getTime() <= previous.observedAt.getTime()) {
      fail(`${where}.observed_at: recordings must be oldest first, each after the one before`);
    }
    if (typeof source !== 'string' || source.length === 0 || source.length > MAX_TEXT) {
      fail(`${where}.source: expected 1 to ${MAX_TEXT} characters`);
    }
    const listedRaw = entries(item['listed'], `${where}.listed`);
    const delistedRaw = entries(item['delisted'], `${where}.delisted`);
    total += listedRaw.length + delistedRaw.length;
    if (total > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries`);
    if (index === 0 && delistedRaw.length > 0) fail(`${where}.delisted: the first lists all`);
    const listed = listedRaw.map((e, i) => listing(e, `${where}.listed[${i}]`));
    const delisted = delistedRaw.map((e, i) => delisting(e, `${where}.delisted[${i}]`));
    const seen = new Set<string>();
    for (const entry of [...listed, ...delisted]) {
      const key = recordKey(entry.regionCode, entry.instanceId);
      if (seen.has(key)) fail(`${where}: ${entry.regionCode} ${entry.instanceId} named twice`);
      seen.add(key);
    }
    out.push({ observedAt, source, listed, delisted });
  }
  return out;
}

/** The key of one record (a type in a region) in a recording. */
export function recordKey(regionCode: string, instanceId: string): string {
  return `${regionCode}\u0000${instanceId}`;
}

/** A recording as the generators give it: prices as recorded text, not yet a change log. */
export interface RecordingInput {
  readonly observedAt: string;
  readonly source: string;
  /** Every record it held: [region, instance id, hourly USD text]. */
  readonly prices: readonly (readonly [string, string, string])[];
}

/**
 * The dated-recordings file of `recordings` (oldest first, each complete), written as change
 * logs: one entry a line, sorted, so the same input gives the same bytes.
 */
export function formatDatedRecordings(recordings: readonly RecordingInput[]): string {
  const parts: string[] = [];
  let before = new Map<string, string>();
  for (const recording of recordings) {
    const now = new Map<string, string>();
    const rows = new Map<string, readonly [string, string, string]>();
    for (const row of recording.prices) {
      const key = recordKey(row[0], row[1]);
      now.set(key, row[2]);
      rows.set(key, row);
    }
    const listed = [...rows.entries()]
      .filter(([key, row]) => before.get(key) !== row[2])
      .map(([, row]) => row);
    const delisted = [...before.keys()]
      .filter((key) => !now.has(key))
      .map((key) => key.split('\u0000') as [string, string]);
    const lines = (items: readonly (readonly string[])[]) =>
      [...items]
        .map((item) => JSON.stringify(item))
        .sort()
        .map((text) => `        ${text}`)
        .join(',\n');
    parts.push(
      [
        '    {',
        `      "observed_at": ${JSON.stringify(recording.observedAt)},`,
        `      "source": ${JSON.stringify(recording.source)},`,
        listed.length === 0
          ? '      "listed": [],'
          : `      "listed": [\n${lines(listed)}\n      ],`,
        delisted.length === 0
          ? '      "delisted": []'
          : `      "delisted": [\n${lines(delisted)}\n      ]`,
        '    }',
      ].join('\n'),
    );
    before = now;
  }
  return `{\n  "format": ${JSON.stringify(DATED_RECORDINGS_FORMAT)},\n  "recordings": [\n${parts.join(',\n')}\n  ]\n}\n`;
}
