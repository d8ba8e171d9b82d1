import { describe, expect, it } from 'vitest';
import { resolveRegionMap } from './region-map.js';
import { PROVIDER_B_REGION_TABLE } from './provider-b/regions.js';
import { PROVIDER_A_REGION_TABLE } from './provider-a/regions.js';
import { divideRoundHalfUp, priceToMicros, scaleTo } from './upstream-values.js';

describe('resolveRegionMap', () => {
  it('maps each of the provider regions to the upstream region of its city, in the table order', () => {
    // D34: Linode's Osaka is jp-osa and its Singapore is ap-south (its ap-southeast is Sydney).
    expect(resolveRegionMap(PROVIDER_A_REGION_TABLE)).toEqual([
      { regionCode: 'ap-northeast', upstreamId: 'ap-northeast' },
      { regionCode: 'ap-south', upstreamId: 'jp-osa' },
      { regionCode: 'ap-southeast', upstreamId: 'ap-south' },
    ]);
    expect(resolveRegionMap(PROVIDER_B_REGION_TABLE).map((m) => m.upstreamId)).toEqual([
      'icn',
      'nrt',
      'itm',
    ]);
  });

  it('replaces only the codes an override names', () => {
    expect(resolveRegionMap(PROVIDER_A_REGION_TABLE, { 'ap-southeast': 'sg-sin-2' })).toEqual([
      { regionCode: 'ap-northeast', upstreamId: 'ap-northeast' },
      { regionCode: 'ap-south', upstreamId: 'jp-osa' },
      { regionCode: 'ap-southeast', upstreamId: 'sg-sin-2' },
    ]);
  });

  it('rejects a code of another provider, a malformed id and an id mapped twice', () => {
    expect(() => resolveRegionMap(PROVIDER_B_REGION_TABLE, { 'ap-south': 'x' })).toThrow(
      /not one of its regions/,
    );
    expect(() => resolveRegionMap(PROVIDER_B_REGION_TABLE, { nrt: '' })).toThrow(/upstream id/);
    expect(() => resolveRegionMap(PROVIDER_B_REGION_TABLE, { nrt: '../etc' })).toThrow(
      /upstream id/,
    );
    expect(() => resolveRegionMap(PROVIDER_B_REGION_TABLE, { nrt: 'icn' })).toThrow(/mapped twice/);
  });
});

describe('upstream value conversions', () => {
  it('rounds integer division half up without float drift', () => {
    expect(divideRoundHalfUp(5_000_000, 730)).toBe(6849);
    expect(divideRoundHalfUp(365, 730)).toBe(1);
    expect(divideRoundHalfUp(364, 730)).toBe(0);
    expect(divideRoundHalfUp(730 * 123_456_789, 730)).toBe(123_456_789);
    expect(divideRoundHalfUp(10_000_000_000_000, 730)).toBe(13_698_630_137);
  });

  it('accepts only positive prices within the ceiling', () => {
    expect(priceToMicros(0.0075, 10)).toBe(7500);
    expect(priceToMicros(0, 10)).toBeNull();
    expect(priceToMicros(-1, 10)).toBeNull();
    expect(priceToMicros(Number.NaN, 10)).toBeNull();
    expect(priceToMicros(10.000001, 10)).toBeNull();
    expect(priceToMicros(0.0000004, 10)).toBeNull();
  });

  it('scales sizes to a fixed number of decimals', () => {
    expect(scaleTo(16000, 1000, 3)).toBe(16);
    expect(scaleTo(1500, 1024, 3)).toBe(1.465);
    expect(scaleTo(40000, 1000, 3)).toBe(40);
  });
});
