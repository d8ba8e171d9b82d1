// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { Type } from 'typebox';
import { PROVIDER_NAMES } from '../../catalog/model.js';
import { FIRST_PROVIDER } from './example-providers.js';
import { InstalledEnum, StringEnum } from './common.js';

const Status = StringEnum(['healthy', 'degraded', 'unhealthy'] as const);
const ProviderName = InstalledEnum(PROVIDER_NAMES);
const LastError = Type.Optional(
  Type.Object(
    {
      message: Type.String(),
      code: Type.Optional(Type.String({ description: 'e.g. ECONNREFUSED, or a SQLSTATE' })),
      at: Type.String({ format: 'date-time', description: 'when the failure started' }),
    },
    {
      description:
        'Extension: the most recent background failure (a connection dropped or refused, a lost subscription), kept after recovery. Each failure is logged once when it starts and once when it ends.',
    },
  ),
);

export const HealthResponse = Type.Object({
  /** `shutting_down`: the process is draining after SIGTERM/SIGINT (docs/operations.md). */
  status: StringEnum(['healthy', 'degraded', 'unhealthy', 'shutting_down'] as const),
  timestamp: Type.String({ format: 'date-time' }),
  components: Type.Object({
    database: Type.Object({
      status: Status,
      latency_ms: Type.Integer(),
      error: Type.Optional(Type.String()),
      last_error: LastError,
    }),
    rate_limiter: Type.Object(
      {
        status: Status,
        latency_ms: Type.Integer(),
        backend: Type.String({ description: 'memory or redis' }),
        error: Type.Optional(Type.String()),
        last_error: LastError,
      },
      { description: 'Extension (D11): the rate-limit counter store.' },
    ),
    invalidation_bus: Type.Optional(
      Type.Object(
        {
          status: Status,
          backend: StringEnum(['redis'] as const),
          error: Type.Optional(Type.String()),
          last_error: LastError,
        },
        {
          description:
            'Extension, with REDIS_URL: the pub/sub channel that tells every replica of a new catalogue. degraded while a connection or the subscription is down (replicas still notice a new catalogue within CATALOG_VERSION_POLL).',
        },
      ),
    ),
    providers: Type.Array(
      Type.Object({
        name: ProviderName,
        status: Status,
        last_sync: Type.Union(
          [Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }), Type.Null()],
          {
            description: 'Last successful sync, `YYYY-MM-DD HH:MM:SS` UTC; null when never synced.',
          },
        ),
        sync_status: StringEnum(['success', 'failed', 'never'] as const),
        regions_count: Type.Integer(),
        instances_count: Type.Integer(),
        error: Type.Optional(Type.String()),
        skipped_records: Type.Optional(
          Type.Integer({
            minimum: 1,
            description:
              'Extension (issue 35): upstream records the latest sync of this provider skipped because they failed validation (present only when not 0). Their stored records kept their previous price and availability; the provider is then at best `degraded`, and `error` names the count.',
          }),
        ),
        data_source: Type.Union(
          [
            Type.Object({
              kind: StringEnum(['snapshot', 'live'] as const),
              observed_at: Type.String({ format: 'date-time' }),
              source: Type.String(),
              age_days: Type.Integer({
                minimum: 0,
                description:
                  'Extension (D57): whole days elapsed from observed_at to now, rounded down.',
              }),
              stale: Type.Boolean({
                description:
                  'Extension (D57): age_days > DATA_STALE_DAYS (default 90). Informational: the provider status keeps the D32 rules (a fresh sync of old figures is healthy and stale).',
              }),
              inferred_regions: Type.Optional(
                Type.Array(Type.String(), {
                  description:
                    'Extension: our region codes whose availability these figures infer rather than record (present only when there are some). The bundled Vultr snapshot infers which plans Osaka (`itm`) sells from the plans recorded in both Tokyo and Seoul: a record there may not be sold.',
                  examples: [['itm']],
                }),
              ),
            }),
            Type.Null(),
          ],
          {
            description:
              'Extension (D37): where the listed figures come from: `snapshot` (a bundled or refreshed snapshot: observed_at is when its figures were recorded upstream, source names the recording, and says which availability is inferred) or `live` (observed_at is when the sync fetched them). null before the first successful sync.',
            examples: [
              {
                kind: 'snapshot',
                observed_at: '2024-02-21T08:20:21.000Z',
                source:
                  'AWS Price List API (EC2 on-demand Linux), as recorded by Spare Cores sc-data on 2024-02-21',
                age_days: 1006,
                stale: true,
              },
            ],
          },
        ),
      }),
    ),
    exchange_rates: Type.Optional(
      Type.Object(
        {
          status: Status,
          as_of: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
            description: 'The ECB reference date of the rates in use (not their refresh time).',
          }),
          source: Type.Union([Type.String(), Type.Null()]),
          kind: Type.Union([StringEnum(['snapshot', 'live'] as const), Type.Null()], {
            description: 'snapshot: the bundled recording; live: FX_RATES_URL over HTTP(S).',
          }),
          last_refresh: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description: 'Last successful refresh; status follows the provider rule (D32) on it.',
          }),
          error: Type.Optional(Type.String()),
        },
        {
          description:
            'Extension (D44): the exchange rates used for `currency`. healthy: refreshed successfully under 24 h ago and the latest refresh succeeded; degraded: 24-48 h, or the latest refresh failed (the last good rates stay in use); unhealthy: never refreshed or over 48 h.',
        },
      ),
    ),
    catalog_index: Type.Optional(
      Type.Object(
        {
          status: Status,
          serving_reads: Type.Boolean({
            description:
              'true once an index exists: /instances (current catalogue), /recommend, /instance-types and the CSV export are answered from memory, never by SQL.',
          }),
          version: Type.Union([Type.Integer(), Type.Null()], {
            description: 'The committed catalogue version (catalog_version) the index holds.',
          }),
          records: Type.Integer({ description: 'Available records in the index.' }),
          built_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
            description: 'When this process built the index being served.',
          }),
          store_failing: Type.Boolean({
            description:
              'true while the last background check of the store failed: the last index keeps answering.',
          }),
        },
        {
          description:
            'Extension (issue 9): the in-memory catalogue index that answers the catalogue reads, per process. healthy: serving and the store answered the last check; degraded: serving the last index while the store cannot be read; unhealthy: no index yet. Informational: the overall status follows D33 only.',
        },
      ),
    ),
  }),
  summary: Type.Object({
    total_providers: Type.Integer(),
    healthy_providers: Type.Integer(),
    total_regions: Type.Integer(),
    total_instances: Type.Integer(),
  }),
});

export const SyncRequest = Type.Object({
  providers: Type.Optional(
    Type.Array(ProviderName, {
      minItems: 1,
      maxItems: 20,
      default: [FIRST_PROVIDER.name],
      description: 'Duplicates count once.',
    }),
  ),
  force: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Extension, and its only effect: true applies a catalogue that leaves one of our regions that had available records with none (the upstream no longer lists the region, or lists nothing in it); without it such a sync fails for that provider with UPSTREAM_INVALID_DATA and keeps the previous catalogue. A catalogue that leaves the provider with no available record is always refused.',
    }),
  ),
});

/** One purchase-option feed's outcome in a sync (D61). */
const OptionFeedOutcome = Type.Object({
  ok_regions: Type.Array(Type.String(), {
    description: 'Our regions whose figures of this option the sync applied.',
  }),
  failed_regions: Type.Array(
    Type.Object({
      region: Type.String(),
      code: Type.String({
        description:
          'UPSTREAM_TIMEOUT, UPSTREAM_NETWORK_ERROR, UPSTREAM_HTTP_ERROR, UPSTREAM_INVALID_DATA (malformed, truncated, the wrong shape, or this region missing or unusable in it), UPSTREAM_TOO_LARGE or UPSTREAM_REDIRECT_REFUSED',
      }),
    }),
    {
      description:
        "Our regions where the feed failed: their stored figures of this option were kept. The detail is in the sync's warn log line, never here.",
    },
  ),
});

export const ProviderSyncResult = Type.Object({
  provider: ProviderName,
  success: Type.Boolean(),
  regions_synced: Type.Integer(),
  instances_synced: Type.Integer(),
  pricing_synced: Type.Integer(),
  duration_ms: Type.Integer(),
  error: Type.Optional(Type.String()),
  error_details: Type.Optional(
    Type.Object({
      code: Type.String({
        description:
          'UPSTREAM_TIMEOUT, UPSTREAM_NETWORK_ERROR, UPSTREAM_HTTP_ERROR, UPSTREAM_INVALID_DATA, UPSTREAM_TOO_LARGE, UPSTREAM_REDIRECT_REFUSED, SYNC_ABORTED, SYNC_LOCK_LOST or SYNC_APPLY_FAILED',
      }),
      message: Type.String(),
    }),
  ),
  skipped_records: Type.Optional(
    Type.Object(
      {
        count: Type.Integer({ minimum: 0 }),
        reasons: Type.Object(
          {
            invalid_region: Type.Optional(Type.Integer({ minimum: 1 })),
            invalid_type: Type.Optional(Type.Integer({ minimum: 1 })),
            duplicate: Type.Optional(Type.Integer({ minimum: 1 })),
            unclassified: Type.Optional(Type.Integer({ minimum: 1 })),
            unusable_price: Type.Optional(Type.Integer({ minimum: 1 })),
          },
          {
            description:
              'Counts by reason, only reasons that occurred: invalid_region (a region record failed its schema), invalid_type (an instance type, plan or product record failed its schema or holds an unusable figure), duplicate (a second record with an id already read), unclassified (a type whose class or family is unknown), unusable_price (no usable price in one of our regions).',
          },
        ),
      },
      {
        description:
          "Extension: upstream records this sync skipped because they failed validation (count = the sum of reasons). Present whenever the provider's catalogue was read, also when its sync then failed. A skipped region record never removes that region's records, and a skipped entry that still names its instance type keeps that record's previous price and availability. More than 10% of the entries read skipped (over the provider or in one region) fails the provider with UPSTREAM_INVALID_DATA.",
      },
    ),
  ),
  data_source: Type.Optional(
    Type.Object(
      {
        kind: StringEnum(['snapshot', 'live'] as const),
        observed_at: Type.String({ format: 'date-time' }),
      },
      {
        description:
          "Extension: what this sync read, for a provider it fetched and applied. `snapshot`: a recorded snapshot (PROVIDER_<X>_URL is a file:// directory, the bundled one by default) was replayed, so no live price was fetched and observed_at is when its figures were recorded upstream; `live`: the provider's API, observed_at is the fetch. Absent when the sync failed or the answer is a run another replica finished (D24).",
      },
    ),
  ),
  options: Type.Optional(
    Type.Object(
      {
        spot: Type.Optional(OptionFeedOutcome),
        spot_advice: Type.Optional(OptionFeedOutcome),
      },
      {
        description:
          "Extension (D61): per purchase-option feed the provider read, what it came to in each of our regions whose offers were read. AWS: `spot` (its spot price feed, PROVIDER_C_SPOT_URL, read only when set) and `spot_advice` (the Spot Instance Advisor, PROVIDER_C_SPOT_ADVICE_URL, the bundled recording by default). A feed's failure never fails the provider: its on-demand and reserved prices are applied as read, and in each failed region the stored figures of that option are kept as they were. Present only for a provider fetched and applied that read such a feed.",
      },
    ),
  ),
});

export const SyncResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    sync_id: Type.String({ pattern: '^sync_[0-9]+_[a-z0-9]{8,}$' }),
    success: Type.Boolean(),
    started_at: Type.String({ format: 'date-time' }),
    completed_at: Type.String({ format: 'date-time' }),
    total_duration_ms: Type.Integer(),
    providers: Type.Array(ProviderSyncResult),
    summary: Type.Object({
      total_providers: Type.Integer(),
      successful_providers: Type.Integer(),
      failed_providers: Type.Integer(),
      total_regions: Type.Integer(),
      total_instances: Type.Integer(),
      total_pricing: Type.Integer(),
    }),
  }),
});
