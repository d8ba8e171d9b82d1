// Comma-separated lists of region codes: `regions` of /instance-types (D46) and `region` of
// /instances (our extension D53, which keeps a single code meaning what it always meant).
import { REGION_CODES } from './model.js';
import { listOf } from './query-parameters.js';

/** Longest list text read, in characters: every code once, comma-joined, fits with room. */
export const REGION_LIST_MAX_CHARS = 256;

/**
 * `region` of /instances and /changes-style filters: one code exactly as D17 has it (an unknown
 * one names the allowed codes), or a list of codes; in REGION_CODES order, so every spelling of
 * one list is one query and one echo.
 */
export const REGION_FILTER = listOf({
  allowed: REGION_CODES,
  items: 'region codes',
  hint: 'one region code, or a comma-separated list of them',
  maxChars: REGION_LIST_MAX_CHARS,
  order: 'allowed',
  loneItemAsEnum: true,
});

/** `regions` of /instance-types: the codes in the order given (the order of the columns). */
export const REGION_COLUMNS = listOf({
  allowed: REGION_CODES,
  items: 'region codes',
  hint: 'a comma-separated list of region codes',
  maxChars: REGION_LIST_MAX_CHARS,
  order: 'given',
});
