// Query parsing for the history endpoints (D39 to D41): raw query-string values in, typed
// queries or a parameter problem (D17's vocabulary) out.
import { CITY_FILTER, regionsWithinCities } from '../catalog/city-list.js';
import { PROVIDER_NAMES, REGION_CODES } from '../catalog/model.js';
import {
  attempt,
  int,
  oneOf,
  ParameterError,
  readParameter,
  readParameters,
  text,
  type Parsed,
  type RawQuery,
} from '../catalog/query-parameters.js';
import type { ChangeCursor, ChangeQuery } from '../storage/history-store.js';
import { CHANGE_KINDS } from './change-model.js';

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

/** The parameters of GET /changes (D40) but `currency`, in the order they are checked. */
const CHANGES_PARAMETERS = {
  since: INSTANT,
  until: INSTANT,
  provider: oneOf(PROVIDER_NAMES),
  region: oneOf(REGION_CODES),
  city: CITY_FILTER,
  kind: oneOf(CHANGE_KINDS),
  limit: int(1, CHANGES_MAX_LIMIT),
  cursor: text(decodeCursor, 'is not a cursor this API returned (use next_cursor as given)'),
};

/** GET /changes (D40); `now` places the default window. */
export function parseChangesQuery(raw: RawQuery, now: Date): Parsed<ChangeQuery> {
  return attempt(() => {
    const given = readParameters(raw, CHANGES_PARAMETERS);
    const since = given.since ?? new Date(now.getTime() - CHANGES_DEFAULT_WINDOW_MS);
    const { until, provider, region, city: cities, kind, cursor: after } = given;
    if (until !== undefined && until.getTime() < since.getTime()) {
      throw new ParameterError({
        parameter: 'since',
        value: raw['since'] ?? since.toISOString(),
        reason: 'must not be later than until',
      });
    }
    return {
      since,
      limit: given.limit ?? CHANGES_DEFAULT_LIMIT,
      ...(until !== undefined && { until }),
      ...(provider !== undefined && { provider }),
      // D56: a city is its regions; with `region` too, both must hold (maybe none).
      ...(cities === undefined
        ? region !== undefined && { region }
        : { regions: regionsWithinCities(cities, region === undefined ? undefined : [region]) }),
      ...(kind !== undefined && { kind }),
      ...(after !== undefined && { after }),
    };
  });
}

/**
 * `as_of` of GET /instances (D41): undefined when absent. A time after `now` is refused: the
 * catalogue of the future is not known.
 */
export function parseAsOf(raw: RawQuery, now: Date): Parsed<Date | undefined> {
  return attempt(() => {
    const at = readParameter(raw, 'as_of', INSTANT);
    if (at !== undefined && at.getTime() > now.getTime()) {
      throw new ParameterError({
        parameter: 'as_of',
        value: raw['as_of'],
        reason: 'must not be in the future',
      });
    }
    return at;
  });
}

const RECORD_ID = text(
  (id) => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined),
  'must be a positive whole number',
);

/** The `{id}` of /instances/{id}/history: a positive whole number (D39). */
export function parseRecordId(id: string): Parsed<number> {
  return attempt(() => readParameter({ id }, 'id', RECORD_ID)!);
}
