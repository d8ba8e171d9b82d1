// The catalogue tools: search_instances (GET /instances), compare_regions (GET /instance-types)
// and recommend (POST /recommend). Each parses its arguments with the route's parser and calls
// the route's core function; structuredContent is the route's `data`.
import { instanceTypesBody } from '../catalog/instance-types/instance-types-service.js';
import { parseInstanceTypesQuery } from '../catalog/instance-types/instance-types-query.js';
import { MAX_LIMIT, parseInstanceQuery } from '../catalog/instance-query.js';
import { parseAsOf } from '../history/history-query.js';
import { listAsOf } from '../history/history-service.js';
import { computeRecommendations, prepareRecommend } from '../recommend/recommend-service.js';
import {
  COMPARE_ARGUMENTS,
  PAGES,
  RECOMMEND_ARGUMENTS,
  SEARCH_ARGUMENTS,
} from './argument-tables.js';
import { INSTANCE_TYPES_OUTPUT, INSTANCES_OUTPUT, RECOMMEND_OUTPUT } from './output-schemas.js';
import { providerList } from './provider-list.js';
import {
  instanceTypesSummary,
  instancesSummary,
  recommendSummary,
  type InstancesData,
  type InstanceTypesData,
} from './summaries.js';
import type { JsonObject } from './tool-schema.js';
import {
  asQuery,
  codedFailure,
  failed,
  parameterFailure,
  queryFailed,
  type ToolDefinition,
} from './tool-types.js';

/** The `data` of a JSON body the listing made (the same bytes GET /instances sends). */
function dataOf(body: Buffer | string): JsonObject {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return (JSON.parse(text) as { data: JsonObject }).data;
}

/** A catalogue record's price in a line the summaries quote, and the freshness advice. */
const QUOTE =
  'Prices are monthly, in USD unless `currency` is given; each carries observed_at (when it was observed upstream).';

export const searchInstances: ToolDefinition = {
  name: 'search_instances',
  title: 'Search cloud instances and prices',
  description: [
    'Find cloud instances and their prices by specs, price, provider, region or city; cheapest first by default.',
    'Answers e.g. "4 vCPU and 8 GB under $50 a month in Tokyo", or a type by name (`q`).',
    `${QUOTE} Memory filters are in GB; records give memory_mb. Page with offset while pagination.has_more.`,
  ].join(' '),
  arguments: SEARCH_ARGUMENTS,
  page: PAGES.instances,
  output: INSTANCES_OUTPUT,
  mirrors: '/instances',
  async run(args, deps) {
    const providers = providerList(asQuery(args), 'region');
    if (!providers.ok) return failed(providers.error);
    const query = providers.query;
    const parsed = parseInstanceQuery(query, deps.rates.current(), { maxLimit: MAX_LIMIT });
    if (!parsed.ok) return parameterFailure(parsed.problem);
    const asOf = parseAsOf(query, new Date(), parsed.value.purchaseOption);
    if (!asOf.ok) return parameterFailure(asOf.problem);
    let data: InstancesData;
    try {
      const body =
        asOf.value === undefined
          ? await deps.listing.list(parsed.value)
          : await listAsOf(deps.store, parsed.value, asOf.value);
      data = dataOf(body) as unknown as InstancesData;
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    const shown = new Set(data.instances.map((record) => record.provider.name));
    const summary = `${instancesSummary(data)}\n${await deps.provenance.text(shown)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

export const compareRegions: ToolDefinition = {
  name: 'compare_regions',
  title: 'Compare an instance type across regions',
  description: [
    'Compare the price of each instance type across regions: one row per provider and type, with its monthly price in each region, the cheapest region and the spread in percent.',
    'Answers e.g. "where is a 2 vCPU / 4 GB instance cheapest in Asia". Takes the record filters of search_instances; `regions` picks the columns.',
    QUOTE,
  ].join(' '),
  arguments: COMPARE_ARGUMENTS,
  page: PAGES.instanceTypes,
  output: INSTANCE_TYPES_OUTPUT,
  mirrors: '/instances',
  async run(args, deps) {
    const providers = providerList(asQuery(args), 'regions');
    if (!providers.ok) return failed(providers.error);
    const parsed = parseInstanceTypesQuery(providers.query, deps.rates.current());
    if (!parsed.ok) return parameterFailure(parsed.problem);
    let data: InstanceTypesData;
    try {
      const index = deps.catalog.current ?? (await deps.catalog.ready());
      const body = instanceTypesBody(
        index.forOption(parsed.value.purchaseOption).filter(parsed.value.filter),
        parsed.value,
        index.lastSuccessfulSync,
      ) as { data: InstanceTypesData };
      data = body.data;
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    const shown = new Set(data.instance_types.map((row) => row.provider));
    const summary = `${instanceTypesSummary(data, deps.displayNames)}\n${await deps.provenance.text(shown)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

/** The example the description gives, checked by the tests to be accepted as written. */
export const RECOMMEND_EXAMPLE = {
  stack: ['nginx', 'php-fpm', 'mysql'],
  scale: 'medium',
  budget_max: 40,
};

export const recommend: ToolDefinition = {
  name: 'recommend',
  title: 'Recommend instances for a software stack',
  description: [
    'Rank instances that fit a software stack at a scale, best first, each with its price, match_score (0-100), pros and cons and record id; `requirements` says the memory and vCPUs the stack needs.',
    `Answers e.g. "what should a medium WordPress site with MySQL run on under $40 a month": ${JSON.stringify(RECOMMEND_EXAMPLE)}.`,
    'An unknown stack name is answered with the supported list. The summary names every pick over budget_max or short of the vCPUs needed.',
    QUOTE,
  ].join(' '),
  arguments: RECOMMEND_ARGUMENTS,
  required: ['stack', 'scale'],
  page: PAGES.recommendations,
  output: RECOMMEND_OUTPUT,
  mirrors: '/recommend',
  async run(args, deps) {
    let prepared: Awaited<ReturnType<typeof prepareRecommend>>;
    try {
      prepared = await prepareRecommend(args, deps);
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    if (!prepared.ok) {
      const { code, message, details } = prepared.error;
      return codedFailure(code, message, details);
    }
    const data = computeRecommendations(prepared);
    const shown = new Set(data.recommendations.map((item) => item.provider));
    const budget = prepared.request.budgetMaxMicros;
    const text = recommendSummary(data, {
      note: prepared.money.note,
      budget: budget === undefined ? undefined : budget / 1_000_000,
      displayNames: deps.displayNames,
    });
    const summary = `${text}\n${await deps.provenance.text(shown)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};
