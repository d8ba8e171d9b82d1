// `cloudprice recommend`: POST /recommend for a person at a terminal. The options become the
// route's JSON body and go through the same core (recommendFor): same validation, same ranking.
import type { RecommendData } from '../recommend/recommend.js';
import { recommendFor } from '../recommend/recommend-service.js';
import { SCALES, STACK_NAMES } from '../recommend/stacks.js';
import {
  configOf,
  EXIT_NO_DATA,
  EXIT_NO_MATCH,
  EXIT_OK,
  outputFormat,
  parseCommandArgs,
  UsageError,
  withServices,
  type CliIo,
} from './cli-common.js';
import { PURCHASE_OPTIONS } from '../catalog/purchase-options.js';
import { formatTable } from './text-table.js';

export const RECOMMEND_USAGE = `Usage: cloudprice recommend --stack <names> --scale <size> [options]

Ranks instances for a software stack, as POST /recommend does (same requirements, scoring and
pros/cons; docs/recommend-scoring.md), from the configured database. Options:

  --stack <a,b,...>       comma-separated: ${STACK_NAMES.join(', ')}
  --scale <size>          ${SCALES.join(', ')}
  --budget <amount>       monthly budget (in --currency), as budget_max
  --providers <a,b,...>   only these providers        --regions <a,b,...>  only these regions
  --limit <n>             recommendations, 1 to 50 (default 10)
  --currency <code>       prices and budget in this currency (USD default)
  --purchase-option <name>
                          rank by this option's prices: ${PURCHASE_OPTIONS.join(', ')}
                          (default on_demand)
  --format <table|json>   table (default) for people; json: the body of POST /recommend

Exit codes: 0 recommendations printed, 3 nothing fits, 4 the catalogue is empty (run
\`cloudprice sync\`), 1 failure (database), 2 bad option or configuration.`;

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** A number when the text is one, else the text: the validator then names what is wrong. */
function numberOrText(text: string): number | string {
  return DECIMAL.test(text) && text.length <= 20 ? Number(text) : text;
}

/** A comma-separated list as the body's array (empty entries kept: the validator refuses them). */
function listOf(text: string): string[] {
  return text.split(',').map((entry) => entry.trim());
}

/** The JSON body POST /recommend would get for these options. */
export function recommendBodyOf(values: {
  stack?: string;
  scale?: string;
  budget?: string;
  providers?: string;
  regions?: string;
  limit?: string;
  currency?: string;
  'purchase-option'?: string;
}): Record<string, unknown> {
  return {
    ...(values.stack !== undefined && { stack: listOf(values.stack) }),
    ...(values.scale !== undefined && { scale: values.scale }),
    ...(values.budget !== undefined && { budget_max: numberOrText(values.budget) }),
    ...(values.providers !== undefined && { providers: listOf(values.providers) }),
    ...(values.regions !== undefined && { regions: listOf(values.regions) }),
    ...(values.limit !== undefined && { limit: numberOrText(values.limit) }),
    ...(values.currency !== undefined && { currency: values.currency }),
    ...(values['purchase-option'] !== undefined && {
      purchase_option: values['purchase-option'],
    }),
  };
}

/** The body field each option fills, for error messages in the CLI's words. */
const OPTION_OF: Readonly<Record<string, string>> = {
  stack: 'stack',
  scale: 'scale',
  budget_max: 'budget',
  providers: 'providers',
  regions: 'regions',
  limit: 'limit',
  currency: 'currency',
  purchase_option: 'purchase-option',
};

function usageErrorOf(error: {
  code: string;
  message: string;
  details: Readonly<Record<string, unknown>>;
}): UsageError {
  const parameter = error.details['parameter'];
  const option = typeof parameter === 'string' ? OPTION_OF[parameter] : undefined;
  const supported = error.details['supported'] ?? error.details['allowed'];
  const list = Array.isArray(supported) ? ` (allowed: ${supported.join(', ')})` : '';
  const where =
    option !== undefined ? `--${option}: ` : error.code === 'INVALID_STACK' ? '--stack: ' : '';
  return new UsageError(`${where}${error.message}${list}`, 'recommend');
}

export function formatRecommendTable(data: RecommendData, monthlyDigits: number): string {
  const { requirements, recommendations } = data;
  const currency = recommendations[0]?.price.currency ?? 'USD';
  const table = formatTable(
    [
      { title: 'RANK', numeric: true },
      { title: 'PROVIDER' },
      { title: 'REGION' },
      { title: 'INSTANCE' },
      { title: 'VCPU', numeric: true },
      { title: 'MEMORY_GB', numeric: true },
      { title: `MONTHLY_${currency}`, numeric: true },
      { title: 'SCORE', numeric: true },
      { title: 'NOTES' },
    ],
    recommendations.map((r) => [
      String(r.rank),
      r.provider,
      r.region_code,
      r.instance_id,
      String(r.specs.vcpu),
      String(Math.round((r.specs.memory_mb / 1024) * 100) / 100),
      r.price.monthly.toFixed(monthlyDigits),
      String(r.match_score),
      [...r.pros, ...r.cons.map((con) => `- ${con}`)].slice(0, 2).join('; '),
    ]),
  );
  const option = recommendations[0]?.price.purchase_option ?? 'on_demand';
  const priced = option === 'on_demand' ? '' : ` Prices: ${option}.`;
  return `Needs at least ${requirements.min_vcpu} vCPU and ${requirements.min_memory_mb} MB memory.${priced}\n\n${table}`;
}

export async function runRecommendCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'recommend',
    args,
    {
      help: { type: 'boolean', short: 'h' },
      stack: { type: 'string' },
      scale: { type: 'string' },
      budget: { type: 'string' },
      providers: { type: 'string' },
      regions: { type: 'string' },
      limit: { type: 'string' },
      currency: { type: 'string' },
      'purchase-option': { type: 'string' },
      format: { type: 'string' },
    },
    false,
  );
  if (values.help === true) {
    io.out(RECOMMEND_USAGE);
    return EXIT_OK;
  }
  const format = outputFormat('recommend', values.format, ['table', 'json']);
  const body = recommendBodyOf(values);

  return withServices(configOf(io), io, async (services) => {
    const started = performance.now();
    const outcome = await recommendFor(body, services);
    if (!outcome.ok) throw usageErrorOf(outcome.error);
    const { data } = outcome;
    if (format === 'json') {
      const meta = {
        query_time_ms: Math.round(performance.now() - started),
        ...(outcome.exchangeRate !== undefined && { exchange_rate: outcome.exchangeRate }),
      };
      io.out(JSON.stringify({ success: true, data, meta }, null, 2));
    } else if (data.recommendations.length > 0) {
      io.out(formatRecommendTable(data, outcome.monthlyDigits));
    }
    if (data.recommendations.length > 0) return EXIT_OK;
    if (
      (services.catalog.current ?? (await services.catalog.ready())).lastSuccessfulSync === null
    ) {
      io.err('cloudprice recommend: the catalogue is empty; run `cloudprice sync` first');
      return EXIT_NO_DATA;
    }
    io.err('cloudprice recommend: no instance fits these requirements');
    return EXIT_NO_MATCH;
  });
}
