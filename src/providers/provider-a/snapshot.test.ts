// The bundled snapshot (data/snapshots/provider_a) read the way the app reads it by default:
// through the real upstream client with a file:// base URL.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../catalog/offers.js';
import { createUpstreamClient } from '../../sync/upstream/http-upstream-client.js';
import { createProviderAAdapter } from './adapter.js';

const SNAPSHOT = new URL('../../../data/snapshots/provider_a/', import.meta.url);

async function readSnapshot(): Promise<ProviderCatalog> {
  const client = createUpstreamClient({
    baseUrl: SNAPSHOT.href,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 5 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
  try {
    return await createProviderAAdapter({ client }).fetchCatalog(new AbortController().signal);
  } finally {
    await client.close();
  }
}

describe('provider_a bundled snapshot', () => {
  it('parses without a skipped record and lists the 37 types where their region sells them', async () => {
    const catalog = await readSnapshot();
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.regionCodes).toEqual(['ap-northeast', 'ap-south', 'ap-southeast']);
    const count = (region: string) => catalog.offers.filter((o) => o.regionCode === region).length;
    // 24 nanode, standard, dedicated and highmem types everywhere; Osaka (jp-osa) also has the
    // 4 GPU and 9 premium types, Singapore (Linode ap-south) the 4 GPU types, Tokyo 2 neither.
    expect(count('ap-northeast')).toBe(24);
    expect(count('ap-south')).toBe(37);
    expect(count('ap-southeast')).toBe(28);
    const premium = new Set(
      catalog.offers.filter((o) => o.instanceId.startsWith('g7-premium')).map((o) => o.regionCode),
    );
    expect(premium).toEqual(new Set(['ap-south']));
    // No network figure was recorded: 0, noted "not_recorded", never a guess.
    expect(catalog.offers.every((o) => o.networkSpeedGbps === 0)).toBe(true);
  });

  it('holds the recorded July 2024 list prices, the base price in every region of ours', async () => {
    const catalog = await readSnapshot();
    const price = (id: string, region = 'ap-south') => {
      const found = catalog.offers.find((o) => o.instanceId === id && o.regionCode === region);
      return found && [found.hourlyMicros, found.monthlyMicros];
    };
    expect(price('g6-nanode-1')).toEqual([7_500, 5_000_000]);
    expect(price('g6-nanode-1', 'ap-northeast')).toEqual([7_500, 5_000_000]);
    expect(price('g6-standard-1')).toEqual([18_000, 12_000_000]);
    expect(price('g6-dedicated-2', 'ap-southeast')).toEqual([54_000, 36_000_000]);
    expect(price('g7-premium-2')).toEqual([64_500, 43_000_000]);
    expect(price('g7-premium-64')?.[1]).toBe(5_530_000_000);
    expect(price('g1-gpu-rtx6000-3')).toEqual([4_500_000, 3_000_000_000]);
    const gpu = catalog.offers.find((o) => o.instanceId === 'g1-gpu-rtx6000-3');
    expect(gpu).toMatchObject({ gpuCount: 3, family: 'gpu' });
  });

  it('names its upstream, recording, observed date and licence, and the 2026 confirmation', () => {
    const metadata: unknown = JSON.parse(readFileSync(new URL('metadata.json', SNAPSHOT), 'utf8'));
    expect(metadata).toMatchObject({
      provider: 'provider_a',
      data_source: { observed_at: '2024-07-11T00:00:00Z' },
      observed_at: '2024-07-11T00:00:00Z',
      licence: { name: expect.stringContaining('MIT') as unknown },
      prices_confirmed: expect.stringContaining('2026-09-17') as unknown,
      statement: expect.stringContaining('live sync') as unknown,
    });
    expect(JSON.stringify(metadata)).toMatch(/linodego/);
  });
});
