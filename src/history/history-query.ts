// Query parsing for the history endpoints (D39 to D41): raw query-string values in, typed
// queries or a parameter problem (D17's vocabulary) out.
import type { ParameterProblem } from '../catalog/instance-query.js';
import { parseCityList, regionsWithinCities } from '../catalog/city-list.js';
import { CITY_SLUGS, PROVIDER_NAMES, REGION_CODES, type ProviderName } from '../catalog/model.js';
import type { ChangeCursor, ChangeQuery } from '../storage/history-store.js';
import { CHANGE_KINDS, type ChangeKind } from './change-model.js';

export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 500;
/** How far back the feed starts when `since` is not given (D40). */
export const CHANGES_DEFAULT_WINDOW_MS = 7 * 24 * 3_600_000;
/** Periods a /history answer holds at most: the newest ones (bounded memory per request). */
export const HISTORY_MAX_PERIODS = 1_000;

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: ParameterProblem };

type Raw = Readonly<Record<string, unknown>>;

class Problem extends Error {
  constructor(readonly problem: ParameterProblem) {
    super(problem.reason);
  }
}

function attempt<T>(parse: () => T): Parsed<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.problem };
    throw error;
  }
}

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new Problem({ parameter: name, value, reason: 'must be given at most once' });
  }
  return value;
}

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

function instant(raw: Raw, name: string): Date | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  const value = parseInstant(text);
  if (value === undefined) {
    throw new Problem({
      parameter: name,
      value: text,
      reason:
        'must be an ISO 8601 date (2026-01-31) or date-time with a zone (2026-01-31T12:00:00Z)',
    });
  }
  return value;
}

function oneOf<T extends string>(raw: Raw, name: string, allowed: readonly T[]): T | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) {
    throw new Problem({
      parameter: name,
      value: text,
      reason: 'is not one of the allowed values',
      allowed,
    });
  }
  return text as T;
}

function limitOf(raw: Raw): number {
  const text = single(raw, 'limit');
  if (text === undefined) return CHANGES_DEFAULT_LIMIT;
  if (!/^\d+$/.test(text)) {
    throw new Problem({ parameter: 'limit', value: text, reason: 'must be a whole number' });
  }
  const value = Number(text);
  if (value < 1 || value > CHANGES_MAX_LIMIT) {
    throw new Problem({
      parameter: 'limit',
      value: text,
      reason: `must be from 1 to ${CHANGES_MAX_LIMIT}`,
    });
  }
  return value;
}

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

/** GET /changes (D40); `now` places the default window. */
export function parseChangesQuery(raw: Raw, now: Date): Parsed<ChangeQuery> {
  return attempt(() => {
    const since = instant(raw, 'since') ?? new Date(now.getTime() - CHANGES_DEFAULT_WINDOW_MS);
    const until = instant(raw, 'until');
    const provider: ProviderName | undefined = oneOf(raw, 'provider', PROVIDER_NAMES);
    const region = oneOf(raw, 'region', REGION_CODES);
    const cityText = single(raw, 'city');
    const cities = cityText === undefined ? undefined : parseCityList(cityText);
    if (cities !== undefined && !cities.ok) {
      throw new Problem({
        parameter: 'city',
        value: cityText,
        reason: `${cities.reason} (one city, or a comma-separated list of them)`,
        allowed: CITY_SLUGS,
      });
    }
    const kind: ChangeKind | undefined = oneOf(raw, 'kind', CHANGE_KINDS);
    const limit = limitOf(raw);
    const cursorText = single(raw, 'cursor');
    const after = cursorText === undefined ? undefined : decodeCursor(cursorText);
    if (cursorText !== undefined && after === undefined) {
      throw new Problem({
        parameter: 'cursor',
        value: cursorText,
        reason: 'is not a cursor this API returned (use next_cursor as given)',
      });
    }
    if (until !== undefined && until.getTime() < since.getTime()) {
      throw new Problem({
        parameter: 'since',
        value: raw['since'] ?? since.toISOString(),
        reason: 'must not be later than until',
      });
    }
    return {
      since,
      limit,
      ...(until !== undefined && { until }),
      ...(provider !== undefined && { provider }),
      // D56: a city is its regions; with `region` too, both must hold (maybe none).
      ...(cities === undefined
        ? region !== undefined && { region }
        : {
            regions: regionsWithinCities(
              cities.cities,
              region === undefined ? undefined : [region],
            ),
          }),
      ...(kind !== undefined && { kind }),
      ...(after !== undefined && { after }),
    };
  });
}

/**
 * `as_of` of GET /instances (D41): undefined when absent. A time after `now` is refused: the
 * catalogue of the future is not known.
 */
export function parseAsOf(raw: Raw, now: Date): Parsed<Date | undefined> {
  return attempt(() => {
    const at = instant(raw, 'as_of');
    if (at !== undefined && at.getTime() > now.getTime()) {
      throw new Problem({
        parameter: 'as_of',
        value: raw['as_of'],
        reason: 'must not be in the future',
      });
    }
    return at;
  });
}

/** The `{id}` of /instances/{id}/history: a positive whole number (D39). */
export function parseRecordId(text: string): Parsed<number> {
  return attempt(() => {
    if (!/^[1-9]\d{0,14}$/.test(text)) {
      throw new Problem({
        parameter: 'id',
        value: text,
        reason: 'must be a positive whole number',
      });
    }
    return Number(text);
  });
}
