// Query parsing for the history endpoints (D39 to D41): raw query-string values in, typed
// queries or a parameter problem (D17's vocabulary) out.
import { CITY_FILTER, regionsWithinCities } from '../catalog/city-list.js';
import { PROVIDER_NAMES, REGION_CODES } from '../catalog/model.js';
import {
  attempt,
  boolean,
  int,
  listOf,
  oneOf,
  ParameterError,
  readParameter,
  readParameters,
  text,
  type Parsed,
  type RawQuery,
} from '../catalog/query-parameters.js';
import type { ChangeCursor, ChangeQuery } from '../storage/history-store.js';
import {
  DEFAULT_PURCHASE_OPTION,
  PURCHASE_OPTIONS,
  type PurchaseOption,
} from '../catalog/purchase-options.js';
import { CHANGE_KINDS } from '../catalog/price-change-model.js';

export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 500;
/** How far back the feed starts when `since` is not given (D40). */
export const CHANGES_DEFAULT_WINDOW_MS = 7 * 24 * 3_600_000;
/** Periods a /history answer holds at most: the newest ones (bounded memory per request). */
export const HISTORY_MAX_PERIODS = 1_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 date (`2026-01-31`, midnight UTC) or RFC 3339 date-time with a zone
 * (`2026-01-31T12:00:00Z`, `...+09:00`). Impossible dates (February 30) are refused, not rolled.
 */
export function parseInstant(text: string): Date | undefined {
  const date = DATE.exec(text);
  const dateTime = date === null ? DATE_TIME.exec(text) : null;
  const parts = date ?? dateTime;
  if (parts === null) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  if (
    dateTime !== null &&
    (Number(parts[4]) > 23 || Number(parts[5]) > 59 || Number(parts[6]) > 59)
  )
    return undefined;
  // Fractions beyond milliseconds are cut: Date holds milliseconds.
  const normalised =
    date !== null ? `${text}T00:00:00Z` : text.replace(/(\.\d{3})\d+/, '$1').replace(' ', 'T');
  const ms = Date.parse(normalised);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

const INSTANT = text(
  parseInstant,
  'must be an ISO 8601 date (2026-01-31) or date-time with a zone (2026-01-31T12:00:00Z)',
);

/**
 * The cursor is opaque to clients: base64url of `v<catalogue version>.<id>`, the position of
 * the last item a page returned in the feed's commit order (issue 22). A cursor of the earlier
 * form, `<at ms>.<id>`, still works: it resumes after the item with that id (its version is
 * looked up), so a client paging across an upgrade neither repeats nor misses an item.
 */
export function encodeCursor(cursor: ChangeCursor): string {
  return Buffer.from(`v${cursor.version ?? 0}.${cursor.id}`).toString('base64url');
}

export function decodeCursor(text: string): ChangeCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  const plain = Buffer.from(text, 'base64url').toString('latin1');
  const match = /^(v?)(\d{1,15})\.(\d{1,15})$/.exec(plain);
  if (match === null) return undefined;
  const first = Number(match[2]);
  const id = Number(match[3]);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(id)) return undefined;
  return match[1] === 'v' ? { version: first, id } : { id };
}

/**
 * `kind` (D40, extended by ADR 0022): one kind, read as D17's enum as before, or a
 * comma-separated list of kinds.
 */
const KIND_FILTER = listOf({
  allowed: CHANGE_KINDS,
  items: 'change kinds',
  hint: 'one change kind, or a comma-separated list of them',
  maxChars: 100,
  order: 'allowed',
  loneItemAsEnum: true,
});

export const CHANGE_ORDERS = ['oldest', 'newest'] as const;

/** A sync id as the feed shows it (`sync_<ms>_<hex>`); other text cannot match one. */
const SYNC_ID = text(
  (id) => (/^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : undefined),
  'must be a sync_id as the feed shows it',
);

/** The parameters of GET /changes (D40, ADR 0022) but `currency`, in the order they are checked. */
/** D61: `purchase_option=all` on /changes lists the items of every option. */
export const ALL_OPTIONS = 'all';

const CHANGES_PARAMETERS = {
  since: INSTANT,
  until: INSTANT,
  provider: oneOf(PROVIDER_NAMES),
  region: oneOf(REGION_CODES),
  city: CITY_FILTER,
  kind: KIND_FILTER,
  sync_id: SYNC_ID,
  limit: int(1, CHANGES_MAX_LIMIT),
  cursor: text(decodeCursor, 'is not a cursor this API returned (use next_cursor as given)'),
  order: oneOf(CHANGE_ORDERS),
  summary: boolean,
  purchase_option: oneOf([...PURCHASE_OPTIONS, ALL_OPTIONS] as const),
};

/** A parsed GET /changes: the page to read, and whether the window's summary goes with it. */
export interface ParsedChangesQuery {
  readonly query: ChangeQuery;
  readonly summary: boolean;
}

/** GET /changes (D40, ADR 0022); `now` places the default window. */
export function parseChangesQuery(raw: RawQuery, now: Date): Parsed<ParsedChangesQuery> {
  return attempt(() => {
    const given = readParameters(raw, CHANGES_PARAMETERS);
    const since = given.since ?? new Date(now.getTime() - CHANGES_DEFAULT_WINDOW_MS);
    const { until, provider, region, city: cities, kind: kinds, cursor: after } = given;
    if (until !== undefined && until.getTime() < since.getTime()) {
      throw new ParameterError({
        parameter: 'since',
        value: raw['since'] ?? since.toISOString(),
        reason: 'must not be later than until',
      });
    }
    const query: ChangeQuery = {
      since,
      limit: given.limit ?? CHANGES_DEFAULT_LIMIT,
      order: given.order ?? 'oldest',
      ...(until !== undefined && { until }),
      ...(provider !== undefined && { provider }),
      // D56: a city is its regions; with `region` too, both must hold (maybe none).
      ...(cities === undefined
        ? region !== undefined && { region }
        : { regions: regionsWithinCities(cities, region === undefined ? undefined : [region]) }),
      ...(kinds !== undefined && { kinds }),
      ...(given.sync_id !== undefined && { syncId: given.sync_id }),
      ...(after !== undefined && { after }),
      // D61: on-demand unless asked; `all` is every option (no filter).
      ...(given.purchase_option !== ALL_OPTIONS && {
        purchaseOption: given.purchase_option ?? DEFAULT_PURCHASE_OPTION,
      }),
    };
    return { query, summary: given.summary ?? false };
  });
}

/**
 * `as_of` of GET /instances (D41): undefined when absent. A time after `now` is refused: the
 * catalogue of the future is not known. With it, `option` (the query's purchase option) must be
 * on_demand: the price history a past catalogue is read from prices records on-demand (D61).
 */
export function parseAsOf(
  raw: RawQuery,
  now: Date,
  option: PurchaseOption = DEFAULT_PURCHASE_OPTION,
): Parsed<Date | undefined> {
  return attempt(() => {
    const at = readParameter(raw, 'as_of', INSTANT);
    if (at !== undefined && at.getTime() > now.getTime()) {
      throw new ParameterError({
        parameter: 'as_of',
        value: raw['as_of'],
        reason: 'must not be in the future',
      });
    }
    if (at !== undefined && option !== DEFAULT_PURCHASE_OPTION) {
      throw new ParameterError({
        parameter: 'purchase_option',
        value: raw['purchase_option'],
        reason:
          'with as_of only on_demand can be asked for: the price history holds on-demand prices',
        allowed: [DEFAULT_PURCHASE_OPTION],
      });
    }
    return at;
  });
}

const RECORD_ID = text(
  (id) => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined),
  'must be a positive whole number',
);

/** `purchase_option` of /instances/{id}/history (D61): one option, on_demand by default. */
export function parseHistoryOption(raw: RawQuery): Parsed<PurchaseOption> {
  return attempt(
    () => readParameter(raw, 'purchase_option', oneOf(PURCHASE_OPTIONS)) ?? DEFAULT_PURCHASE_OPTION,
  );
}

/** The `{id}` of /instances/{id}/history: a positive whole number (D39). */
export function parseRecordId(id: string): Parsed<number> {
  return attempt(() => readParameter({ id }, 'id', RECORD_ID)!);
}
