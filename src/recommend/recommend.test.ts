import { describe, expect, it } from 'vitest';
import { candidate } from './fixtures/candidates.js';
import { buildRecommendations } from './recommend.js';
import { parseRecommendRequest } from './validate-request.js';
import type { RecommendRequest } from './validate-request.js';

function request(body: unknown): RecommendRequest {
  const result = parseRecommendRequest(body);
  if (!result.ok) throw new Error(result.error.code);
  return result.value;
}

describe('buildRecommendations', () => {
  // nginx + mysql, medium: 256 + 2048 + 768 = 3072 MB, 2 vCPU.
  const body = { stack: ['nginx', 'mysql'], scale: 'medium', budget_max: 30 };
  const fit = candidate({
    id: 10,
    providerName: 'provider_b',
    instanceId: 'b-4g',
    instanceName: 'B 4GB',
    regionCode: 'icn',
    regionName: 'Seoul',
    memoryMb: 3584, // r = 1.1667 -> 100
    vcpu: 2,
    storageGb: 80,
    transferTb: 4,
    monthlyMicros: 24_000_000,
    hourlyMicros: 32_877, // $0.032877 -> 0.0329
  });
  const pricey = candidate({
    id: 11,
    providerName: 'provider_c',
    instanceId: 'c-8g',
    instanceName: 'C 8GB',
    regionCode: 'ap-east-1',
    regionName: 'Hong Kong',
    memoryMb: 8192, // r = 2.67 -> 70
    vcpu: 1, // -10
    storageGb: 0,
    monthlyMicros: 40_004_999, // over $30 -> -20; presented as 40.00
    hourlyMicros: 54_801,
  });
  const tooSmall = candidate({ id: 12, memoryMb: 3071 });

  it('returns requirements and ranked recommendations in wire shape', () => {
    const data = buildRecommendations([pricey, tooSmall, fit], request(body));
    expect(data).toMatchObject({
      requirements: {
        min_memory_mb: 3072,
        min_vcpu: 2,
        breakdown: { nginx: '256MB', mysql: '2GB', os_overhead: '768MB' },
      },
      recommendations: [
        {
          rank: 1,
          provider: 'provider_b',
          instance: 'B 4GB',
          region: 'Seoul',
          specs: { vcpu: 2, memory_mb: 3584, storage_gb: 80 },
          price: { monthly: 24, hourly: 0.0329, currency: 'USD' },
          match_score: 100,
          // D58: 0.4 x 3072/3584 + 0.3 x 1 + 0.2 x 24/24 + 0.1 x 1
          score_breakdown: {
            memory_fit: 0.8571,
            vcpu_fit: 1,
            price_fit: 1,
            storage_fit: 1,
            tie_break: 0.9429,
          },
          pros: [
            // Only one option is within the $30 budget: no count is given.
            '3.5 GB memory: 512 MB above the 3 GB required',
            '2 vCPU, meeting the 2 vCPU suggested',
            '$24.00/month, within the $30.00 budget',
            '4 TB monthly transfer included',
          ],
          cons: [],
          id: 10,
          instance_id: 'b-4g',
          region_code: 'icn',
        },
        {
          rank: 2,
          provider: 'provider_c',
          instance: 'C 8GB',
          region: 'Hong Kong',
          specs: { vcpu: 1, memory_mb: 8192, storage_gb: 0 },
          price: { monthly: 40, hourly: 0.0548, currency: 'USD' },
          match_score: 40,
          // 0.4 x 3072/8192 + 0.3 x 1/2 + 0.2 x 24/40.004999 + 0.1 x 0.5
          score_breakdown: {
            memory_fit: 0.375,
            vcpu_fit: 0.5,
            price_fit: 0.5999,
            storage_fit: 0.5,
            tie_break: 0.47,
          },
          pros: ['8 GB memory: 5 GB above the 3 GB required'],
          cons: [
            // The displayed prices: 40.00 - 24.00, and 16 / 24.
            '$16.00/month more than rank 1 (+66.7%)',
            'Memory is more than 1.5x the 3 GB required',
            '1 vCPU, below the 2 vCPU suggested',
            '$10.004999/month over the $30.00 budget',
            'No local storage (block storage is billed separately)',
          ],
          id: 11,
          instance_id: 'c-8g',
          region_code: 'ap-east-1',
        },
      ],
    });
  });

  it('applies the limit and the filters of the request', () => {
    const one = buildRecommendations([pricey, fit], request({ ...body, limit: 1 }));
    expect(one.recommendations.map((r) => r.instance)).toEqual(['B 4GB']);
    const onlyC = buildRecommendations(
      [pricey, fit],
      request({ ...body, providers: ['provider_c'] }),
    );
    expect(onlyC.recommendations.map((r) => [r.rank, r.instance])).toEqual([[1, 'C 8GB']]);
  });

  // Issue 32 item 6: a result names what it runs on, its score and when its price was observed,
  // as /instances does for the same record, so the Recommend cards can say so.
  it("carries the record's CPU, CoreMark (per USD of monthly price) and observation time", () => {
    const arm = candidate({
      id: 13,
      monthlyMicros: 3_800_000,
      observedAt: Date.UTC(2025, 3, 4, 22, 41, 22),
      facts: {
        cpuArchitecture: 'arm64',
        cpuManufacturer: 'AWS',
        cpuModel: 'ARMv8 Neoverse-N1',
        cpuAllocation: 'burstable',
        gpuMemoryGb: null,
        storageType: null,
        coremark: { score: 38489, ranAt: Date.UTC(2025, 11, 10), source: 'bench' },
      },
    });
    const list = buildRecommendations([arm, fit], request(body)).recommendations;
    const [first, second] = [13, 10].map((id) => list.find((r) => r.id === id));
    expect(first).toMatchObject({
      id: 13,
      cpu: {
        architecture: 'arm64',
        manufacturer: 'AWS',
        model: 'ARMv8 Neoverse-N1',
        allocation: 'burstable',
      },
      benchmark: {
        coremark: 38489,
        coremark_per_usd_month: 10128.68,
        ran_at: '2025-12-10T00:00:00.000Z',
        source: 'bench',
      },
      observed_at: '2025-04-04T22:41:22.000Z',
    });
    expect(second).toMatchObject({
      id: 10,
      cpu: { architecture: null, manufacturer: null, model: null, allocation: null },
      benchmark: null,
    });
  });

  it('serialises the breakdown in the order the stack was given', () => {
    const data = buildRecommendations(
      [],
      request({ stack: ['redis', 'nginx', 'redis'], scale: 'small' }),
    );
    expect(JSON.stringify(data)).toBe(
      '{"requirements":{"min_memory_mb":1152,"min_vcpu":1,"breakdown":{"redis":"256MB","nginx":"128MB","os_overhead":"768MB"}},"recommendations":[],"summary":{"candidates":0,"within_budget":0,"cheapest_meeting_requirements":null}}',
    );
  });
});
