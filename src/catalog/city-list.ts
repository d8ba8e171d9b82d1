// The `city` parameter (D56) of GET /instances, /instance-types and /changes: one city slug, or
// a comma-separated list of them. Cities select regions; the queries run on region codes.
import { CITY_SLUGS, REGION_CODES, regionCodesInCities, type CitySlug } from './model.js';
import { listOf } from './query-parameters.js';

/** Longest list text read, in characters: every slug once, comma-joined, fits with room. */
export const CITY_LIST_MAX_CHARS = 128;

export function isCitySlug(value: unknown): value is CitySlug {
  return typeof value === 'string' && (CITY_SLUGS as readonly string[]).includes(value);
}

/**
 * The `city` parameter: the cities in CITY_SLUGS order, duplicates dropped (so every spelling of
 * one list is one query and one echo). Exact and lower case like every enum (D17).
 */
export const CITY_FILTER = listOf({
  allowed: CITY_SLUGS,
  items: 'city slugs',
  hint: 'one city, or a comma-separated list of them',
  maxChars: CITY_LIST_MAX_CHARS,
  order: 'allowed',
});

/**
 * D56: "with `region` (or `regions`) too, both must hold". The region codes that are in one of
 * `cities` and, when `regions` is given, also in it; in REGION_CODES order. Empty when the two
 * have nothing in common: the query then matches nothing.
 */
export function regionsWithinCities(
  cities: readonly CitySlug[],
  regions: readonly string[] = REGION_CODES,
): string[] {
  return regionCodesInCities(cities).filter((code) => regions.includes(code));
}
