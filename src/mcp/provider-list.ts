// `provider` as a list on the tools (as `region` is): the HTTP filter takes one provider, and every
// region code belongs to exactly one provider, so several providers are the region codes they
// serve. One provider is passed as it is; so is anything the route's parser should judge.
import { PROVIDER_NAMES, regionsOf, REGION_CODES } from '../catalog/model.js';
import { invalidParameter } from '../api/parameter-error.js';
import type { AppError } from '../api/errors.js';

type Query = Record<string, unknown>;

/**
 * `query` with a comma-separated `provider` of two or more names turned into the region
 * parameter `regionParameter` (`region` for /instances, `regions` for /instance-types): the
 * providers' region codes, kept to those listed in it when it is given. When nothing remains, a
 * region of another provider stands in, so the route answers its own empty page.
 */
export function providerList(
  query: Query,
  regionParameter: 'region' | 'regions',
): { ok: true; query: Query } | { ok: false; error: AppError } {
  const raw = query['provider'];
  if (typeof raw !== 'string' || !raw.includes(',')) return { ok: true, query };
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !PROVIDER_NAMES.includes(name));
  if (unknown !== undefined) {
    return {
      ok: false,
      error: invalidParameter({
        parameter: 'provider',
        value: raw,
        reason: `"${unknown}" is not a provider (a name, or several comma-separated)`,
        allowed: PROVIDER_NAMES,
      }),
    };
  }
  const providers = [...new Set(names)];
  const { provider: _provider, ...rest } = query;
  if (providers.length === 1) return { ok: true, query: { ...rest, provider: providers[0] } };
  const served = providers.flatMap((name) => regionsOf(name).map((r) => r.regionCode));
  const listed = rest[regionParameter];
  let codes = served;
  if (typeof listed === 'string') {
    const given = listed.split(',');
    // An unknown code is the parser's to refuse: leave the list as it was sent.
    if (!given.every((code) => REGION_CODES.includes(code))) return { ok: true, query };
    codes = given.filter((code) => served.includes(code));
  }
  if (codes.length === 0) {
    // Nothing of these providers in the listed regions: one provider in another's region.
    const outside = REGION_CODES.find((code) => !served.includes(code));
    if (outside === undefined) return { ok: true, query: rest };
    return { ok: true, query: { ...rest, provider: providers[0], [regionParameter]: outside } };
  }
  return { ok: true, query: { ...rest, [regionParameter]: codes.join(',') } };
}
