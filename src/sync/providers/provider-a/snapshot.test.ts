// The bundled snapshot (data/snapshots/provider_a) read the way the app reads it by default:
// through the real upstream client with a file:// base URL.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../offer.js';
import { createUpstreamClient } from '../../upstream/http-upstream-client.js';
import { createProviderAAdapter } from './adapter.js';

const SNAPSHOT = new URL('../../../../data/snapshots/provider_a/', import.meta.url);

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
  it('parses without a skipped record and lists all 37 types where their region allows', async () => {
    const catalog = await readSnapshot();
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.regionCodes).toEqual(['ap-northeast', 'ap-south', 'ap-southeast']);
    // 24 shared, dedicated and highmem types x 3 regions + 4 GPU types in ap-south (the only one
    // of ours with GPU Linodes); none of our regions has Premium Plans.
    expect(catalog.offers).toHaveLength(76);
    const ids = new Set(catalog.offers.map((o) => o.instanceId));
    expect(ids.size).toBe(28);
    expect([...ids].some((id) => id.startsWith('g7-premium'))).toBe(false);
    const gpuRegions = new Set(
      catalog.offers.filter((o) => o.gpuCount > 0).map((o) => o.regionCode),
    );
    expect(gpuRegions).toEqual(new Set(['ap-south']));
  });

  it('holds the real July 2024 list prices of the formats file', async () => {
    const catalog = await readSnapshot();
    const price = (id: string) => {
      const found = catalog.offers.find((o) => o.instanceId === id && o.regionCode === 'ap-south');
      return found && [found.hourlyMicros, found.monthlyMicros];
    };
    expect(price('g6-nanode-1')).toEqual([7_500, 5_000_000]);
    expect(price('g6-standard-1')).toEqual([18_000, 12_000_000]);
    expect(price('g6-standard-6')).toEqual([144_000, 96_000_000]);
    expect(price('g6-dedicated-4')).toEqual([108_000, 72_000_000]);
    expect(price('g7-highmem-1')).toEqual([90_000, 60_000_000]);
    expect(price('g6-standard-32')?.[1]).toBe(1_152_000_000);
    expect(price('g6-dedicated-64')?.[1]).toBe(4_608_000_000);
    expect(price('g7-highmem-16')?.[1]).toBe(960_000_000);
    expect(price('g1-gpu-rtx6000-1')).toEqual([1_500_000, 1_000_000_000]);
    expect(price('g1-gpu-rtx6000-4')?.[1]).toBe(4_000_000_000);
  });

  it('says in its metadata what is real and what is approximate', () => {
    const metadata: unknown = JSON.parse(readFileSync(new URL('metadata.json', SNAPSHOT), 'utf8'));
    expect(metadata).toMatchObject({
      provider: 'provider_a',
      source_date: '2024-07-19',
      statement: expect.stringContaining('live sync') as unknown,
    });
    const approximate = (metadata as { approximate: unknown }).approximate;
    expect(Array.isArray(approximate) && approximate.length > 0).toBe(true);
  });
});
