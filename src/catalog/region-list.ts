// Comma-separated lists of region codes: `regions` of /instance-types (D46) and `region` of
// /instances (our extension D53, which keeps a single code meaning what it always meant).
import { REGION_CODES } from './model.js';

/** Longest list text read, in characters: every code once, comma-joined, fits with room. */
export const REGION_LIST_MAX_CHARS = 256;

export type RegionListResult =
  | { readonly ok: true; readonly codes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Codes in the order given, duplicates dropped. Exact and lower case like `region` (D17): no
 * blanks, no empty items (`icn,,nrt`, a trailing comma), every item one of REGION_CODES.
 */
export function parseRegionList(text: string): RegionListResult {
  if (text.length > REGION_LIST_MAX_CHARS) {
    return { ok: false, reason: `must be at most ${REGION_LIST_MAX_CHARS} characters` };
  }
  const codes: string[] = [];
  for (const item of text.split(',')) {
    if (item === '') {
      return { ok: false, reason: 'must be region codes separated by single commas' };
    }
    if (!REGION_CODES.includes(item)) {
      return { ok: false, reason: `"${item.slice(0, 40)}" is not one of the allowed values` };
    }
    if (!codes.includes(item)) codes.push(item);
  }
  return { ok: true, codes };
}
