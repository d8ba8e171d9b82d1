// The history and freshness tools: price_history (GET /instances/{id}/history), list_changes
// (GET /changes) and get_freshness (the providers and exchange rates of GET /health).
import { parseCurrency } from '../fx/currency-parameter.js';
import type { HealthReport } from '../health/health-service.js';
import { parseChangesQuery, parseHistoryOption, parseRecordId } from '../history/history-query.js';
import { changeFeed, recordHistory } from '../history/history-service.js';
import { CHANGES_ARGUMENTS, HISTORY_ARGUMENTS, PAGES } from './argument-tables.js';
import { changesSummary, freshnessSummary, historySummary } from './history-summaries.js';
import { CHANGES_OUTPUT, FRESHNESS_OUTPUT, HISTORY_OUTPUT } from './output-schemas.js';
import type { JsonObject } from './tool-schema.js';
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
    'The price periods of one instance record (id from search_instances or recommend), newest first: when each monthly price started (valid_from) and ended (valid_to, null while current), and whether the type was offered then.',
    'Answers e.g. "has this instance got dearer", "what did it cost in March". `currency` converts every period at the latest ECB rate.',
  ].join(' '),
  arguments: HISTORY_ARGUMENTS,
  required: ['id'],
  output: HISTORY_OUTPUT,
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
    const option = parseHistoryOption(query);
    if (!option.ok) return parameterFailure(option.problem);
    let data: Awaited<ReturnType<typeof recordHistory>>;
    try {
      data = await recordHistory(deps.store, id.value, money.value, option.value);
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
    'What syncs changed in the catalogue, oldest first (order=newest for newest first): instance types added, removed or back, and monthly price increases and decreases with the old and new price and change_pct.',
    'Answers e.g. "what got cheaper this week", "did AWS change prices in Tokyo since 1 March". Page with cursor = the previous next_cursor; summary=true counts the whole window.',
  ].join(' '),
  arguments: CHANGES_ARGUMENTS,
  page: PAGES.changes,
  output: CHANGES_OUTPUT,
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
    const summary = `${changesSummary(data, parsed.value.query.order ?? 'oldest', deps.displayNames)}\n${await deps.provenance.text(providers)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

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
    'How up to date the prices are, per provider: sync status, last sync (UTC), and where the figures come from: kind (snapshot = a bundled recording, live = fetched), observed_at, source, age_days, stale; and the exchange rates in use (ECB reference date).',
    'Call it before presenting prices as current. stale: true means observed more than DATA_STALE_DAYS (default 90) days ago: give the date and say prices may have changed. No arguments.',
  ].join(' '),
  arguments: {},
  output: FRESHNESS_OUTPUT,
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
