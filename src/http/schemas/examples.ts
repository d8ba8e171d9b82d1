// Examples of every request body and success response, for the OpenAPI document. Each is typed
// against its schema (so a schema change that an example no longer fits fails typecheck), and
// `redocly lint` validates each against the served schema (test/http/openapi.lint.test.ts).
// Routes attach them with withExamples(schema, example) in their route schema.
// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { FIRST_PROVIDER, SECOND_PROVIDER, THIRD_PROVIDER } from './example-providers.js';
import type { Static } from 'typebox';
import { PROVIDER_NAMES } from '../../catalog/model.js';
import { STACK_NAMES } from '../../recommend/stacks.js';
import { errorBody } from '../../api/errors.js';
import type { HealthResponse, SyncRequest, SyncResponse } from './health-sync.js';
import type { InstanceRecord, InstancesResponse } from './instances.js';
import type { RecommendRequestSchema, RecommendResponse } from './recommend.js';

export const INSTANCE_RECORD_EXAMPLE: Static<typeof InstanceRecord> = {
  id: 7,
  instance_id: 'g6-standard-2',
  instance_name: 'Linode 4GB',
  vcpu: 2,
  memory_mb: 4096,
  storage_gb: 80,
  transfer_tb: 4,
  network_speed_gbps: 4,
  gpu_count: 0,
  gpu_type: null,
  instance_family: 'general',
  field_notes: {},
  provider: { id: 1, name: FIRST_PROVIDER.name, display_name: 'Linode' },
  region: {
    id: 1,
    region_code: 'ap-northeast',
    region_name: 'Tokyo',
    country_code: 'JP',
    city: 'tokyo',
    provider_region_id: 'ap-northeast',
  },
  pricing: {
    hourly_price: 0.036,
    monthly_price: 24,
    currency: 'USD',
    available: 1,
    observed_at: '2026-11-23T06:00:04.512Z',
    monthly_price_per_vcpu: 12,
    monthly_price_per_gb: 6,
    purchase_option: 'on_demand',
    options: {
      on_demand: {
        hourly_price: 0.036,
        monthly_price: 24,
        observed_at: '2026-11-23T06:00:04.512Z',
      },
    },
    spot_advice: null,
  },
  cpu: { architecture: null, manufacturer: null, model: null, allocation: 'shared' },
  gpu_memory_gb: null,
  storage_type: null,
  benchmark: null,
};

export const INSTANCES_RESPONSE_EXAMPLE: Static<typeof InstancesResponse> = {
  success: true,
  data: {
    instances: [INSTANCE_RECORD_EXAMPLE],
    pagination: { total: 42, limit: 1, offset: 0, has_more: true },
    metadata: {
      cached: false,
      last_sync: '2026-11-23T06:00:04.512Z',
      query_time_ms: 3,
      filters_applied: { provider: FIRST_PROVIDER.name, min_vcpu: 2 },
    },
  },
};

const healthyProvider = (name: string, regions: number) => ({
  name,
  status: 'healthy' as const,
  last_sync: '2026-11-23 06:00:04',
  sync_status: 'success' as const,
  regions_count: regions,
  instances_count: 12 * regions,
  data_source: {
    kind: 'live' as const,
    observed_at: '2026-11-23T06:00:04.512Z',
    source: `${name} API`,
    age_days: 0,
    stale: false,
  },
});

export const HEALTH_HEALTHY_EXAMPLE: Static<typeof HealthResponse> = {
  status: 'healthy',
  timestamp: '2026-11-23T07:15:00.123Z',
  components: {
    database: { status: 'healthy', latency_ms: 1 },
    rate_limiter: { status: 'healthy', latency_ms: 0, backend: 'memory' },
    providers: [
      healthyProvider(FIRST_PROVIDER.name, 3),
      healthyProvider(SECOND_PROVIDER.name, 3),
      healthyProvider(THIRD_PROVIDER.name, 5),
    ],
    exchange_rates: {
      status: 'healthy',
      as_of: '2026-10-06',
      source: 'data/snapshots/fx/eurofxref-daily.xml',
      kind: 'snapshot',
      last_refresh: '2026-11-23T06:00:04.100Z',
    },
    catalog_index: {
      status: 'healthy',
      serving_reads: true,
      version: 3,
      records: 132,
      built_at: '2026-11-23T06:00:05.020Z',
      store_failing: false,
    },
  },
  summary: { total_providers: 3, healthy_providers: 3, total_regions: 11, total_instances: 132 },
};

export const HEALTH_DEGRADED_EXAMPLE: Static<typeof HealthResponse> = {
  ...HEALTH_HEALTHY_EXAMPLE,
  status: 'degraded',
  components: {
    ...HEALTH_HEALTHY_EXAMPLE.components,
    providers: [
      healthyProvider(FIRST_PROVIDER.name, 3),
      healthyProvider(SECOND_PROVIDER.name, 3),
      {
        ...healthyProvider(THIRD_PROVIDER.name, 5),
        status: 'degraded',
        sync_status: 'failed',
        error: 'Upstream answered HTTP 502',
      },
    ],
  },
  summary: { ...HEALTH_HEALTHY_EXAMPLE.summary, healthy_providers: 2 },
};

export const SYNC_REQUEST_EXAMPLE: Static<typeof SyncRequest> = {
  providers: [FIRST_PROVIDER.name, SECOND_PROVIDER.name],
};

export const SYNC_RESPONSE_EXAMPLE: Static<typeof SyncResponse> = {
  success: true,
  data: {
    sync_id: 'sync_1763881204512_k3v9x2qa',
    success: true,
    started_at: '2026-11-23T06:00:04.512Z',
    completed_at: '2026-11-23T06:00:06.020Z',
    total_duration_ms: 1508,
    providers: [
      {
        provider: FIRST_PROVIDER.name,
        success: true,
        regions_synced: 3,
        instances_synced: 36,
        pricing_synced: 36,
        duration_ms: 1210,
      },
      {
        provider: SECOND_PROVIDER.name,
        success: true,
        regions_synced: 3,
        instances_synced: 36,
        pricing_synced: 36,
        duration_ms: 1490,
      },
    ],
    summary: {
      total_providers: 2,
      successful_providers: 2,
      failed_providers: 0,
      total_regions: 6,
      total_instances: 72,
      total_pricing: 72,
    },
  },
};

export const SYNC_FAILED_EXAMPLE = errorBody(
  'SYNC_FAILED',
  'Synchronisation failed for every requested provider',
  {
    sync_id: 'sync_1763881204512_k3v9x2qa',
    providers: [
      {
        provider: FIRST_PROVIDER.name,
        success: false,
        regions_synced: 0,
        instances_synced: 0,
        pricing_synced: 0,
        duration_ms: 10004,
        error: 'Upstream did not answer within 10 s',
        error_details: { code: 'UPSTREAM_TIMEOUT', message: 'Upstream did not answer within 10 s' },
      },
    ],
  },
);

export const UNSUPPORTED_PROVIDERS_EXAMPLE = errorBody(
  'UNSUPPORTED_PROVIDERS',
  'Unsupported providers: provider_x',
  { unsupported: ['provider_x'], supported: [...PROVIDER_NAMES] },
);

export const RECOMMEND_REQUEST_EXAMPLE: Static<typeof RecommendRequestSchema> = {
  stack: ['nginx', 'postgresql'],
  scale: 'medium',
  budget_max: 60,
};

export const RECOMMEND_RESPONSE_EXAMPLE: Static<typeof RecommendResponse> = {
  success: true,
  data: {
    requirements: {
      min_memory_mb: 3072,
      min_vcpu: 2,
      breakdown: { nginx: '256MB', postgresql: '2GB', os_overhead: '768MB' },
    },
    recommendations: [
      {
        rank: 1,
        provider: FIRST_PROVIDER.name,
        instance: 'Linode 4GB',
        region: 'Tokyo',
        specs: { vcpu: 2, memory_mb: 4096, storage_gb: 80 },
        price: { monthly: 24, hourly: 0.036, currency: 'USD', purchase_option: 'on_demand' },
        match_score: 90,
        score_breakdown: {
          memory_fit: 0.75,
          vcpu_fit: 1,
          price_fit: 1,
          storage_fit: 1,
          tie_break: 0.9,
        },
        pros: [
          'Cheapest of 41 matching options within the budget',
          '4 GB memory: 1 GB above the 3 GB required',
          '2 vCPU, meeting the 2 vCPU suggested',
          '$24.00/month, within the $60.00 budget',
        ],
        cons: ['Price observed on 2024-07-11; it may have changed since'],
        id: 7,
        instance_id: 'g6-standard-2',
        region_code: 'ap-northeast',
        cpu: { architecture: null, manufacturer: null, model: null, allocation: 'shared' },
        benchmark: null,
        observed_at: '2024-07-11T00:00:00.000Z',
      },
    ],
    summary: {
      candidates: 214,
      within_budget: 37,
      cheapest_meeting_requirements: {
        provider: FIRST_PROVIDER.name,
        instance: 'Linode 4GB',
        region: 'Tokyo',
        monthly: 24,
      },
    },
  },
  meta: { query_time_ms: 4 },
};

export const INVALID_STACK_EXAMPLE = errorBody(
  'INVALID_STACK',
  'One or more stack names are not supported',
  {
    invalid: ['cobol'],
    supported: [...STACK_NAMES],
  },
);
