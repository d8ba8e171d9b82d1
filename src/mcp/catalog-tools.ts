// The catalogue tools: search_instances (GET /instances), compare_regions (GET /instance-types)
// and recommend (POST /recommend). Each parses its arguments with the route's parser and calls
// the route's core function; structuredContent is the route's `data`.
import { instanceTypesBody } from '../catalog/instance-types/instance-types-service.js';
import { parseInstanceTypesQuery } from '../catalog/instance-types/instance-types-query.js';
import { MAX_LIMIT, parseInstanceQuery } from '../catalog/instance-query.js';
import { parseAsOf } from '../history/history-query.js';
import { listAsOf } from '../history/history-service.js';
import {
  InstanceTypeRow,
  InstanceTypesQuery,
  InstanceTypesResponse,
} from '../http/schemas/instance-types.js';
import { InstanceRecord, InstancesQuery, InstancesResponse } from '../http/schemas/instances.js';
import { RecommendRequestSchema, RecommendResponse } from '../http/schemas/recommend.js';
import { computeRecommendations, prepareRecommend } from '../recommend/recommend-service.js';
import { FRESHNESS_NOTE, UNITS_NOTE } from './descriptions.js';
import {
  instanceTypesSummary,
  instancesSummary,
  recommendSummary,
  type InstancesData,
  type InstanceTypesData,
} from './summaries.js';
import { toJsonSchema, type JsonObject } from './tool-schema.js';
import {
  asQuery,
  codedFailure,
  parameterFailure,
  queryFailed,
  type ToolDefinition,
} from './tool-types.js';
import { PROVIDERS } from '../providers/registry.js';

/** /instances' parameters but `format`: a tool answers JSON (CSV is a download, not an answer). */
const { format: _format, ...instancesParameters } = InstancesQuery.properties;

/** The `data` of a JSON body the listing made (the same bytes GET /instances sends). */
function dataOf(body: Buffer | string): JsonObject {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return (JSON.parse(text) as { data: JsonObject }).data;
}

export const searchInstances: ToolDefinition = {
  name: 'search_instances',
  title: 'Search cloud instances and prices',
  description: [
    `Find cloud compute instances (${PROVIDERS.map((p) => p.displayName).join(', ')} in Asian regions) and their prices: the same filters, sort and paging as GET /instances.`,
    'Use it to answer "which instances have at least 4 vCPU and 8 GB under $50 a month in Tokyo", to look up a type by name (`q`, e.g. "t3." or "linode 8gb"), or to list the cheapest first (the default order: monthly price ascending).',
    `Filters: provider (${PROVIDERS.map((p) => `${p.name} = ${p.displayName}`).join(', ')}), region (a code or comma-separated codes), city (tokyo, seoul, osaka, singapore, hong-kong; comma-separated for several), min_vcpu/max_vcpu, min_memory_gb/max_memory_gb (GB; records show memory_mb), max_price (monthly, in \`currency\`), instance_family, has_gpu.`,
    'Paging: limit (1-100, default 50) and offset; pagination.has_more says whether to ask for the next page. as_of (ISO date or date-time) answers from the price history as the catalogue was then.',
    UNITS_NOTE,
    FRESHNESS_NOTE,
  ].join('\n'),
  input: toJsonSchema({ ...InstancesQuery, properties: instancesParameters }),
  output: toJsonSchema(InstancesResponse.properties.data, { InstanceRecord }),
  mirrors: '/instances',
  async run(args, deps) {
    const query = asQuery(args);
    const parsed = parseInstanceQuery(query, deps.rates.current(), { maxLimit: MAX_LIMIT });
    if (!parsed.ok) return parameterFailure(parsed.problem);
    const asOf = parseAsOf(query, new Date());
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
    const providers = new Set(data.instances.map((record) => record.provider.name));
    const summary = `${instancesSummary(data)}\n${await deps.provenance.text(providers)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

export const compareRegions: ToolDefinition = {
  name: 'compare_regions',
  title: 'Compare an instance type across regions',
  description: [
    'Compare prices of the same instance type across regions side by side (GET /instance-types): one row per (provider, instance type) with its monthly and hourly price in each listed region, the cheapest region and the spread in percent.',
    'Use it for "where is a 2 vCPU / 4 GB instance cheapest in Asia", "how much dearer is Tokyo than Singapore for this type". Choose regions with `regions` (comma-separated codes, in the order to show); `available_in=all` keeps only types offered in every listed region of their provider.',
    'The same filters as search_instances select the records (provider, min/max vCPU, memory in GB, max_price, family, GPU, q, city).',
    UNITS_NOTE,
    FRESHNESS_NOTE,
  ].join('\n'),
  input: toJsonSchema(InstanceTypesQuery),
  output: toJsonSchema(InstanceTypesResponse.properties.data, { InstanceTypeRow }),
  mirrors: '/instances',
  async run(args, deps) {
    const parsed = parseInstanceTypesQuery(asQuery(args), deps.rates.current());
    if (!parsed.ok) return parameterFailure(parsed.problem);
    let data: InstanceTypesData;
    try {
      const index = deps.catalog.current ?? (await deps.catalog.ready());
      const body = instanceTypesBody(
        index.filter(parsed.value.filter),
        parsed.value,
        index.lastSuccessfulSync,
      ) as { data: InstanceTypesData };
      data = body.data;
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    const providers = new Set(data.instance_types.map((row) => row.provider));
    const summary = `${instanceTypesSummary(data)}\n${await deps.provenance.text(providers)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

export const recommend: ToolDefinition = {
  name: 'recommend',
  title: 'Recommend instances for a software stack',
  description: [
    'Rank instances that fit a software stack at a scale (POST /recommend): give `stack` (names such as nginx, nodejs, postgresql, redis, mysql, mongodb, docker...; an unknown name is answered with the supported list) and `scale` (small, medium or large); optionally budget_max (monthly, in `currency`), providers, regions, cities, limit (1-50, default 10).',
    'Use it for "what should I run WordPress with MySQL on for a medium site under $40 a month". Each recommendation has its price, a match_score, pros and cons, and its record id (usable with price_history). The requirements (min_memory_mb, min_vcpu) say what the stack needs.',
    UNITS_NOTE,
    FRESHNESS_NOTE,
  ].join('\n'),
  input: toJsonSchema(RecommendRequestSchema),
  output: toJsonSchema(RecommendResponse.properties.data),
  mirrors: '/recommend',
  async run(args, deps) {
    let prepared: Awaited<ReturnType<typeof prepareRecommend>>;
    try {
      prepared = await prepareRecommend(asBody(args), deps);
    } catch (error) {
      return queryFailed(deps, this.name, error);
    }
    if (!prepared.ok) {
      const { code, message, details } = prepared.error;
      return codedFailure(code, message, details);
    }
    const data = computeRecommendations(prepared);
    const providers = new Set(data.recommendations.map((item) => item.provider));
    const summary = `${recommendSummary(data, prepared.money.note)}\n${await deps.provenance.text(providers)}`;
    return { ok: true, data: data as unknown as JsonObject, summary };
  },
};

/** The body POST /recommend would get; a null field is an absent one (as in asQuery). */
function asBody(args: JsonObject): JsonObject {
  const body = Object.create(null) as JsonObject;
  for (const [name, value] of Object.entries(args)) if (value !== null) body[name] = value;
  return body;
}
