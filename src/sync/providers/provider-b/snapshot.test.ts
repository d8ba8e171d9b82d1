// The bundled snapshot (data/snapshots/provider_b) read the way the app reads it by default:
// through the real upstream client with a file:// base URL.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../offer.js';
import { createUpstreamClient } from '../../upstream/http-upstream-client.js';
import { createProviderBAdapter } from './adapter.js';

const SNAPSHOT = new URL('../../../../data/snapshots/provider_b/', import.meta.url);

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
    return await createProviderBAdapter({ client }).fetchCatalog(new AbortController().signal);
  } finally {
    await client.close();
  }
}

describe('provider_b bundled snapshot', () => {
  it('parses without a skipped record and lists each plan in its locations among ours', async () => {
    const catalog = await readSnapshot();
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.regionCodes).toEqual(['icn', 'nrt', 'itm']);
    // 10 plans in icn, nrt and itm; 4 in icn and nrt; 4 in nrt only (see plans.json locations).
    expect(catalog.offers).toHaveLength(42);
    expect(new Set(catalog.offers.map((o) => o.instanceId)).size).toBe(18);
    const families = new Set(catalog.offers.map((o) => o.family));
    expect(families).toEqual(new Set(['general', 'memory', 'gpu']));
  });

  it('holds the real list prices of the formats file', async () => {
    const catalog = await readSnapshot();
    const price = (id: string) => {
      const found = catalog.offers.find((o) => o.instanceId === id && o.regionCode === 'nrt');
      return found && [found.hourlyMicros, found.monthlyMicros];
    };
    expect(price('vc2-1c-0.5gb-v6')).toEqual([3_000, 2_500_000]);
    expect(price('vc2-1c-1gb')).toEqual([7_000, 5_000_000]);
    expect(price('vc2-6c-16gb')).toEqual([110_000, 80_000_000]);
    expect(price('vc2-8c-32gb')).toEqual([219_000, 160_000_000]);
    expect(price('vhf-1c-1gb')).toEqual([8_000, 6_000_000]);
    expect(price('voc-g-2c-8gb-50s-amd')).toEqual([82_000, 60_000_000]);
    expect(price('vcg-a100-12c-120g-80vram')).toEqual([2_397_000, 1_750_000_000]);
  });

  it('says in its metadata what is real and what is approximate', () => {
    const metadata: unknown = JSON.parse(readFileSync(new URL('metadata.json', SNAPSHOT), 'utf8'));
    expect(metadata).toMatchObject({
      provider: 'provider_b',
      source_date: '2025-12',
      statement: expect.stringContaining('live sync') as unknown,
    });
    const approximate = (metadata as { approximate: unknown }).approximate;
    expect(Array.isArray(approximate) && approximate.length > 0).toBe(true);
  });
});
