// Our region code (section 4.5) -> the upstream's region id, per provider. The default reads each
// of our regions from the upstream region in the same city (D34: our table names the city): the
// provider's region table gives the upstream id where it is not our code. Operators can point one
// of our codes at another upstream id through configuration.
import type { ProviderRegion } from './provider-definition.js';

/** Overrides as configuration supplies them: our region code -> upstream region id. */
export type RegionMapOverrides = Readonly<Record<string, string>>;

/** One entry per region of the provider, in the specification's table order. */
export interface RegionMapping {
  readonly regionCode: string;
  readonly upstreamId: string;
}

const UPSTREAM_REGION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The provider's full map: the same-city default for every one of its regions, replaced where
 * `overrides` names a code. Throws a plain Error (a configuration mistake, not an upstream failure) for a code
 * that is not one of the provider's regions, a malformed upstream id, or two of our codes mapped
 * to the same upstream id (that would list one upstream region twice under two names).
 */
export function resolveRegionMap(
  {
    name: provider,
    regions,
  }: { readonly name: string; readonly regions: readonly ProviderRegion[] },
  overrides: RegionMapOverrides = {},
): readonly RegionMapping[] {
  const ours = regions.map((r) => r.regionCode);
  for (const code of Object.keys(overrides)) {
    if (!ours.includes(code)) {
      throw new Error(
        `region map for ${provider}: "${code}" is not one of its regions (${ours.join(', ')})`,
      );
    }
  }
  const mapping = regions.map(({ regionCode, upstreamId: cityDefault }) => {
    const upstreamId = Object.hasOwn(overrides, regionCode)
      ? overrides[regionCode]
      : (cityDefault ?? regionCode);
    if (upstreamId === undefined || !UPSTREAM_REGION_ID.test(upstreamId)) {
      throw new Error(
        `region map for ${provider}: upstream id for "${regionCode}" must be 1-64 letters, digits, ".", "_" or "-"`,
      );
    }
    return { regionCode, upstreamId };
  });
  const seen = new Set<string>();
  for (const { upstreamId } of mapping) {
    if (seen.has(upstreamId)) {
      throw new Error(`region map for ${provider}: upstream id "${upstreamId}" is mapped twice`);
    }
    seen.add(upstreamId);
  }
  return Object.freeze(mapping);
}
