// The history and freshness tools: price_history (GET /instances/{id}/history), list_changes
// (GET /changes) and get_freshness (the providers and exchange rates of GET /health).
import { Type } from 'typebox';
import { parseCurrency } from '../fx/currency-parameter.js';
import type { HealthReport } from '../health/health-service.js';
import { parseChangesQuery, parseRecordId } from '../history/history-query.js';
import { changeFeed, recordHistory } from '../history/history-service.js';
import { HealthResponse } from '../http/schemas/health-sync.js';
import {
  ChangeItem,
  ChangesQuery,
  ChangesResponse,
  HistoryParams,
  HistoryQuery,
  HistoryResponse,
  PricePeriod,
} from '../http/schemas/history.js';
import { InstanceRecord } from '../http/schemas/instances.js';
import { FRESHNESS_NOTE, UNITS_NOTE } from './descriptions.js';
import { changesSummary, freshnessSummary, historySummary } from './history-summaries.js';
import { toJsonSchema, type JsonObject } from './tool-schema.js';
import {
  asQuery,
  codedFailure,
  parameterFailure,
  queryFailed,
  type ToolDefinition,
} from './tool-types.js';

export const priceHistory: ToolDefinition = {
  name: 'price_history',
  title: "A record's price history",
  description: [
    'The price periods of one instance record, newest first (GET /instances/{id}/history): when each price started (valid_from) and ended (valid_to, null while current), and whether the record was offered then. `id` is a record id from search_instances or recommend.',
    'Use it for "has this instance got dearer", "what did it cost in March". A period opens only when a sync saw a change; currency converts every period at the latest rate.',
    UNITS_NOTE,
    FRESHNESS_NOTE,
  ].join('\n'),
  input: toJsonSchema(Type.Object({ ...HistoryParams.properties, ...HistoryQuery.properties })),
  output: toJsonSchema(HistoryResponse.properties.data, { InstanceRecord, PricePeriod }),
  mirrors: '/instances',
  async run(args, deps) {
    const query = asQuery(args);
    const raw = query['id'];
    if (raw === undefined) {
      return codedFailure('MISSING_PARAMETER', 'Missing required parameter: id', {
        parameter: 'id',
      });
    }
    const id = parseRecordId(typeof raw === 'string' ? raw : JSON.stringify(raw));
    if (!id.ok) return parameterFailure(id.problem);
    const money = parseCurrency(query['currency'], deps.rates.current());
    if (!money.ok) return parameterFailure(money.problem);
    let data: Awaited<ReturnType<typeof recordHistory>>;
    try {
      data = await recordHistory(deps.store, id.value, money.value);
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    if (data === undefined)
      return codedFailure('NOT_FOUND', `No instance record with id ${id.value}`);
    const summary = `${historySummary(data)}\n${await deps.provenance.text(new Set([data.instance.provider.name]))}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

export const listChanges: ToolDefinition = {
  name: 'list_changes',
  title: 'What changed in the catalogue',
  description: [
    'The change feed, oldest first or with order=newest newest first (GET /changes): instances added, removed, returned, and price increases and decreases, each with the old and new price and change_pct.',
    'Use it for "what got cheaper this week", "did AWS change prices in Tokyo since 1 March". since/until are ISO dates or date-times (since defaults to 7 days ago); filter by provider, region, city, kind (one or a comma-separated list), sync_id; limit 1-500 (default 100); page with cursor = the previous next_cursor. summary=true adds the counts per kind and per sync over the whole window.',
    UNITS_NOTE,
  ].join('\n'),
  input: toJsonSchema(ChangesQuery),
  output: toJsonSchema(ChangesResponse.properties.data, { ChangeItem }),
  mirrors: '/instances',
  async run(args, deps) {
    const query = asQuery(args);
    const parsed = parseChangesQuery(query, new Date());
    if (!parsed.ok) return parameterFailure(parsed.problem);
    const money = parseCurrency(query['currency'], deps.rates.current());
    if (!money.ok) return parameterFailure(money.problem);
    let data: Awaited<ReturnType<typeof changeFeed>>;
    try {
      data = await changeFeed(deps.store, parsed.value, money.value);
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    const providers = new Set(data.changes.map((change) => change.instance.provider));
    const summary = `${changesSummary(data, parsed.value.query.order)}\n${await deps.provenance.text(providers)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

const healthComponents = HealthResponse.properties.components.properties;
const healthProvider = healthComponents.providers.items.properties;

export const FreshnessData = Type.Object({
  providers: Type.Array(
    Type.Object({
      name: healthProvider.name,
      display_name: Type.String({ description: 'The provider as people know it (D55).' }),
      status: healthProvider.status,
      last_sync: healthProvider.last_sync,
      data_source: healthProvider.data_source,
    }),
  ),
  exchange_rates: healthComponents.exchange_rates,
});

/** The providers and exchange rates of a /health report, as get_freshness answers them. */
export function freshnessOf(
  report: HealthReport,
  displayNames: Readonly<Record<string, string>>,
): JsonObject {
  const { providers, exchange_rates } = report.components;
  return {
    providers: providers.map((p) => ({
      name: p.name,
      display_name: displayNames[p.name] ?? p.name,
      status: p.status,
      last_sync: p.last_sync,
      data_source: p.data_source,
    })),
    ...(exchange_rates !== undefined && { exchange_rates }),
  };
}

export const getFreshness: ToolDefinition = {
  name: 'get_freshness',
  title: 'How fresh the prices are',
  description: [
    'Per provider: its sync status (healthy, degraded, unhealthy), last successful sync (UTC), and data_source: kind (snapshot = a recording bundled or refreshed from upstream; live = fetched by a sync), observed_at (when the figures were observed upstream), source (which upstream and recording), age_days and stale. Also the exchange rates in use (ECB reference date and source).',
    'Call it before quoting prices as current, and whenever a user asks how up to date the data is. `stale: true` means the figures are older than DATA_STALE_DAYS (default 90): prices may have changed upstream; say so and give the observation date. No arguments.',
  ].join('\n'),
  input: { type: 'object', properties: {} },
  output: toJsonSchema(FreshnessData),
  mirrors: '/health',
  async run(_args, deps) {
    let data: JsonObject;
    try {
      data = freshnessOf(await deps.health.check(), deps.displayNames);
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    return { ok: true, data, summary: freshnessSummary(data as never) };
  },
};
