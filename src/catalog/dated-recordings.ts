// Dated recordings (D64): a bundled snapshot may carry earlier recordings of its provider's
// prices beside its current upstream files, so a first fill can replay the provider's history
// at the recordings' own dates. The format is ours and the same for every provider (one JSON
// file named by the snapshot's metadata.json, `dated_recordings`):
//
//   { "format": "cloudprice-dated-recordings-1",
//     "recordings": [ { "observed_at": ISO, "source": text,
//                       "listed": [ [region, instance id, hourly USD (, monthly USD)], ... ],
//                       "delisted": [ [region, instance id], ... ],
//                       "options": { "spot": { "listed": [ [region, instance id, hourly USD] ],
//                                              "delisted": [ [region, instance id] ] }, ... } },
//                   ... ] }
//
// Oldest first. The first recording lists everything it held; each later one is a change log
// against the one before: `listed` names records new or re-priced at that recording, `delisted`
// records it no longer held. Region codes are ours (section 4.5). Prices are the recorded text;
// monthly, when not given, is hourly x 730 (D36). The snapshot's current files are the newest
// recording (at its metadata's observed_at) and are not repeated here. Pure: parse and format.
//
// `options` (optional; D61): the on-demand entries above are the record's list price; a purchase
// option other than on-demand has its own change log with the same rules, per option name:
// `listed` the record's option new or re-priced (monthly always hourly x 730, D61, so no monthly
// is given), `delisted` the record no longer sold under that option (the record itself stays).
// An option is offered while its record is listed and the option is. A recording without
// `options` changes no option; a file without any carries on-demand prices only.
import { decimalToMicros, monthlyMicrosFromHourly } from './money.js';
import { isPurchaseOption, optionPrice, type OtherPurchaseOption } from './purchase-options.js';

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

/** One purchase option's change log in one recording (monthly = hourly x 730, D61). */
export interface RecordedOptionChanges {
  readonly listed: readonly RecordedListing[];
  readonly delisted: readonly RecordedDelisting[];
}

/** One dated recording, as a change log against the one before (the first: everything). */
export interface DatedRecording {
  readonly observedAt: Date;
  readonly source: string;
  /** On-demand list prices. */
  readonly listed: readonly RecordedListing[];
  readonly delisted: readonly RecordedDelisting[];
  /** The other purchase options' change logs; absent: no option changed. */
  readonly options?: Readonly<Partial<Record<OtherPurchaseOption, RecordedOptionChanges>>>;
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

function optionListing(entry: unknown, where: string): RecordedListing {
  if (!Array.isArray(entry) || entry.length !== 3) {
    fail(`${where}: expected [region, instance id, hourly USD]`);
  }
  const { hourlyMicros, monthlyMicros } = optionPrice(usd(entry[2], where));
  return {
    regionCode: code(entry[0], where),
    instanceId: code(entry[1], where),
    hourlyMicros,
    monthlyMicros,
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

function noRecordTwice(
  entries: readonly (RecordedListing | RecordedDelisting)[],
  where: string,
): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    const key = recordKey(entry.regionCode, entry.instanceId);
    if (seen.has(key)) fail(`${where}: ${entry.regionCode} ${entry.instanceId} named twice`);
    seen.add(key);
  }
}

/** A recording's `options`, checked as its on-demand entries are; counts what it read. */
function optionChanges(
  value: unknown,
  where: string,
  first: boolean,
  count: (entries: number) => void,
): DatedRecording['options'] {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(`${where}: not an object`);
  const out: Partial<Record<OtherPurchaseOption, RecordedOptionChanges>> = {};
  for (const [name, changes] of Object.entries(value)) {
    const at = `${where}.${name}`;
    if (!isPurchaseOption(name) || name === 'on_demand') {
      fail(`${at}: not a purchase option other than on_demand`);
    }
    if (!isObject(changes)) fail(`${at}: not an object`);
    const listedRaw = entries(changes['listed'], `${at}.listed`);
    const delistedRaw = entries(changes['delisted'], `${at}.delisted`);
    count(listedRaw.length + delistedRaw.length);
    if (first && delistedRaw.length > 0) fail(`${at}.delisted: the first lists all`);
    const listed = listedRaw.map((e, i) => optionListing(e, `${at}.listed[${i}]`));
    const delisted = delistedRaw.map((e, i) => delisting(e, `${at}.delisted[${i}]`));
    noRecordTwice([...listed, ...delisted], at);
    out[name] = { listed, delisted };
  }
  return out;
}

/**
 * The recordings of a parsed dated-recordings file, oldest first, checked: the format name,
 * strictly increasing whole-second UTC times, a source text each, well-formed entries, no
 * record twice in one recording (per option), nothing delisted in the first, option names
 * known. Throws DatedRecordingsError.
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
    const count = (more: number) => {
      total += more;
      if (total > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries`);
    };
    count(listedRaw.length + delistedRaw.length);
    if (index === 0 && delistedRaw.length > 0) fail(`${where}.delisted: the first lists all`);
    const listed = listedRaw.map((e, i) => listing(e, `${where}.listed[${i}]`));
    const delisted = delistedRaw.map((e, i) => delisting(e, `${where}.delisted[${i}]`));
    noRecordTwice([...listed, ...delisted], where);
    const options = optionChanges(item['options'], `${where}.options`, index === 0, count);
    out.push(
      options === undefined
        ? { observedAt, source, listed, delisted }
        : { observedAt, source, listed, delisted, options },
    );
  }
  return out;
}

/** The key of one record (a type in a region) in a recording. */
export function recordKey(regionCode: string, instanceId: string): string {
  return `${regionCode}\u0000${instanceId}`;
}

/**
 * [region, instance id, hourly USD text], or with the monthly USD text too where the on-demand
 * monthly is not hourly x 730 of the rounded micro-dollars (Google Cloud: exact text x 730).
 * Option rows never carry one (D61: optionPrice()).
 */
type PriceRow = readonly [string, string, string] | readonly [string, string, string, string];

/** A recording as the generators give it: prices as recorded text, not yet a change log. */
export interface RecordingInput {
  readonly observedAt: string;
  readonly source: string;
  /** Every record it held, on-demand. */
  readonly prices: readonly PriceRow[];
  /** Every option price it held, per option other than on-demand; absent: none recorded. */
  readonly options?: Readonly<
    Partial<Record<OtherPurchaseOption, readonly (readonly [string, string, string])[]>>
  >;
}

/** One change log (`listed`, `delisted`) of `now` against `before`, keyed by recordKey. */
function changeLog(
  before: ReadonlyMap<string, string>,
  rows: readonly PriceRow[],
): { now: Map<string, string>; listed: PriceRow[]; delisted: [string, string][] } {
  const now = new Map<string, string>();
  const byKey = new Map<string, PriceRow>();
  for (const row of rows) {
    const key = recordKey(row[0], row[1]);
    now.set(key, row[2]);
    byKey.set(key, row);
  }
  const listed = [...byKey.entries()]
    // The monthly, where given, follows from the hourly text: a change of either is one of it.
    .filter(([key, row]) => before.get(key) !== row[2])
    .map(([, row]) => row);
  const delisted = [...before.keys()]
    .filter((key) => !now.has(key))
    .map((key) => key.split('\u0000') as [string, string]);
  return { now, listed, delisted };
}

/** Entries one a line, sorted, at `indent`. */
function entryLines(items: readonly (readonly string[])[], indent: string): string {
  return [...items]
    .map((item) => JSON.stringify(item))
    .sort()
    .map((text) => `${indent}${text}`)
    .join(',\n');
}

function listText(name: string, items: readonly (readonly string[])[], indent: string): string {
  return items.length === 0
    ? `${indent}${JSON.stringify(name)}: []`
    : `${indent}${JSON.stringify(name)}: [\n${entryLines(items, `${indent}  `)}\n${indent}]`;
}

/** One option's change log in a recording's `options`. */
function optionText(
  name: string,
  listed: readonly (readonly string[])[],
  delisted: readonly (readonly string[])[],
): string {
  return [
    `        ${JSON.stringify(name)}: {`,
    `${listText('listed', listed, '          ')},`,
    listText('delisted', delisted, '          '),
    '        }',
  ].join('\n');
}

/**
 * The dated-recordings file of `recordings` (oldest first, each complete), written as change
 * logs: one entry a line, sorted, so the same input gives the same bytes. A recording's
 * `options` is written only with the options that changed at it.
 */
export function formatDatedRecordings(recordings: readonly RecordingInput[]): string {
  const parts: string[] = [];
  let before = new Map<string, string>();
  const optionsBefore = new Map<OtherPurchaseOption, Map<string, string>>();
  for (const recording of recordings) {
    const onDemand = changeLog(before, recording.prices);
    const optionParts: string[] = [];
    for (const [name, rows] of Object.entries(recording.options ?? {}) as [
      OtherPurchaseOption,
      readonly PriceRow[],
    ][]) {
      const log = changeLog(optionsBefore.get(name) ?? new Map(), rows);
      optionsBefore.set(name, log.now);
      if (log.listed.length === 0 && log.delisted.length === 0) continue;
      optionParts.push(optionText(name, log.listed, log.delisted));
    }
    // An option a recording no longer carries at all: every record of it is delisted.
    for (const [name, map] of optionsBefore) {
      if (recording.options?.[name] !== undefined || map.size === 0) continue;
      const log = changeLog(map, []);
      optionsBefore.set(name, log.now);
      optionParts.push(optionText(name, [], log.delisted));
    }
    parts.push(
      [
        '    {',
        `      "observed_at": ${JSON.stringify(recording.observedAt)},`,
        `      "source": ${JSON.stringify(recording.source)},`,
        `${listText('listed', onDemand.listed, '      ')},`,
        optionParts.length === 0
          ? listText('delisted', onDemand.delisted, '      ')
          : `${listText('delisted', onDemand.delisted, '      ')},\n      "options": {\n${optionParts.join(',\n')}\n      }`,
        '    }',
      ].join('\n'),
    );
    before = onDemand.now;
  }
  return `{\n  "format": ${JSON.stringify(DATED_RECORDINGS_FORMAT)},\n  "recordings": [\n${parts.join(',\n')}\n  ]\n}\n`;
}
