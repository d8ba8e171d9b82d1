// Which representation of GET /instances a request wants (D47): `format` decides when given
// (json or csv); otherwise the Accept header, and CSV only when the client prefers it.
import {
  attempt,
  oneOf,
  readParameter,
  type ParameterProblem,
} from '../catalog/query-parameters.js';

export const RESPONSE_FORMATS = ['json', 'csv'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export type FormatResult =
  | { readonly ok: true; readonly format: ResponseFormat }
  | { readonly ok: false; readonly problem: ParameterProblem };

/** Longest Accept header read; a longer one is read as far as this (no media type is that long). */
const ACCEPT_MAX_CHARS = 1_024;

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept
    .slice(0, ACCEPT_MAX_CHARS)
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const qParam = params.find((p) => /^q\s*=/.test(p));
      const q = qParam === undefined ? 1 : Number(qParam.slice(qParam.indexOf('=') + 1).trim());
      return { type, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0 };
    })
    .filter((range) => range.type !== '');
}

/** The q of the most specific range matching `type/subtype` (RFC 9110 12.5.1), or 0. */
function quality(ranges: readonly MediaRange[], type: string): number {
  const wildcard = `${type.split('/')[0]}/*`;
  const exact = ranges.find((r) => r.type === type);
  if (exact) return exact.q;
  const partial = ranges.find((r) => r.type === wildcard);
  if (partial) return partial.q;
  return ranges.find((r) => r.type === '*/*')?.q ?? 0;
}

/**
 * CSV when `format=csv`; JSON when `format=json`; otherwise CSV only when Accept names text/csv
 * and the client rates it above application/json (a tie, `*` or no Accept: JSON, the default).
 */
export function responseFormat(format: unknown, accept: string | undefined): FormatResult {
  const given = attempt(() => readParameter({ format }, 'format', oneOf(RESPONSE_FORMATS)));
  if (!given.ok) return given;
  if (given.value !== undefined) return { ok: true, format: given.value };
  if (accept === undefined || !accept.toLowerCase().includes('text/csv')) {
    return { ok: true, format: 'json' };
  }
  const ranges = mediaRanges(accept);
  const csv = ranges.find((r) => r.type === 'text/csv')?.q ?? 0;
  const json = quality(ranges, 'application/json');
  const jsonNamed = ranges.some((r) => r.type === 'application/json');
  return {
    ok: true,
    format: csv > 0 && (csv > json || (csv === json && !jsonNamed)) ? 'csv' : 'json',
  };
}
