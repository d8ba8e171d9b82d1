// `cloudprice instances`: GET /instances for a person at a terminal. The options become the
// route's query parameters and go through the same parser (parseInstanceQuery) and the same
// listing, so the CLI and the API cannot disagree on a filter, a sort or a price.
import {
  CSV_MAX_LIMIT,
  MAX_LIMIT,
  SORT_FIELDS,
  parseInstanceQuery,
} from '../catalog/instance-query.js';
import type { InstanceRecord } from '../catalog/instance-json.js';
import { exportInstancesCsv } from '../catalog/instance-export.js';
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
import { formatTable } from './text-table.js';
import { PURCHASE_OPTIONS } from '../catalog/purchase-options.js';
import { defaultProviders, PROVIDERS } from '../providers/registry.js';

export const INSTANCES_USAGE = `Usage: cloudprice instances [options]

Lists available instances from the configured database, as GET /instances does (same filters,
same validation, same prices). Options:

  --provider <name>       ${defaultProviders()
    .map((p) => p.name)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1')}${optInProviders()}
  --region <code>         a region code (nrt, icn, ap-northeast-1, ...), or several: nrt,icn
  --city <slug>           a city (tokyo, seoul, osaka, singapore, hong-kong), or several
  --min-vcpu <n>          at least n vCPUs         --max-vcpu <n>     at most n vCPUs
  --min-memory <gb>       at least this memory     --max-memory <gb>  at most this memory
  --max-price <amount>    monthly price at most this (in --currency)
  --family <name>         instance family (general, compute, memory, gpu, ...)
  --gpu                   only instances with a GPU
  --arch <name>           CPU architecture: x86_64 or arm64, or both: x86_64,arm64
  --cpu-allocation <name> dedicated, shared or burstable, or several: dedicated,shared
  --purchase-option <name>
                          price by this option: ${PURCHASE_OPTIONS.join(', ')}
                          (default on_demand; only records sold under it are listed)
  --sort <field>          ${SORT_FIELDS.join(', ')} (default price)
  --order <asc|desc>      default asc
  --limit <n>             rows to print: 1 to 100 (default 50); with --format csv 1 to 10000
                          (default 10000: the whole result, as GET /instances?format=csv allows)
  --offset <n>            rows to skip (default 0)
  --currency <code>       prices in this currency (USD default; see GET /health exchange_rates)
  --format <table|json|csv>
                          table (default): aligned columns for people; json: the body of
                          GET /instances; csv: the columns and rules of GET /instances?format=csv,
                          then arch, cpu_allocation and coremark (empty when not recorded)

Exit codes: 0 records printed, 3 none matched, 4 the catalogue is empty (run \`cloudprice sync\`),
1 failure (database), 2 bad option or configuration.`;

/** The providers a PROVIDERS setting can add (D65), as a usage line; empty when there are none. */
function optInProviders(): string {
  const optIn = PROVIDERS.filter((p) => p.optIn === true);
  return optIn.length === 0
    ? ''
    : `\n                          (with PROVIDERS=all also ${optIn.map((p) => `${p.name}, ${p.displayName}`).join('; ')})`;
}

/** Each option and the GET /instances parameter it is. */
const PARAMETER_OF = {
  provider: 'provider',
  region: 'region',
  city: 'city',
  'min-vcpu': 'min_vcpu',
  'max-vcpu': 'max_vcpu',
  'min-memory': 'min_memory_gb',
  'max-memory': 'max_memory_gb',
  'max-price': 'max_price',
  family: 'instance_family',
  arch: 'arch',
  'cpu-allocation': 'cpu_allocation',
  'purchase-option': 'purchase_option',
  sort: 'sort_by',
  order: 'order',
  limit: 'limit',
  offset: 'offset',
  currency: 'currency',
} as const;
type ValueOption = keyof typeof PARAMETER_OF;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  gpu: { type: 'boolean' },
  format: { type: 'string' },
  ...(Object.fromEntries(
    Object.keys(PARAMETER_OF).map((name) => [name, { type: 'string' }]),
  ) as Record<ValueOption, { type: 'string' }>),
} as const;

/** The query string GET /instances would get for these options. */
export function instancesQueryOf(
  values: Partial<Record<ValueOption, string>> & { gpu?: boolean },
): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [option, parameter] of Object.entries(PARAMETER_OF)) {
    const value = values[option as ValueOption];
    if (value !== undefined) raw[parameter] = value;
  }
  if (values.gpu === true) raw['has_gpu'] = 'true';
  return raw;
}

/** The parser's complaint, told in the CLI's words: the option, not the query parameter. */
function usageErrorOf(problem: {
  parameter: string;
  value: unknown;
  reason: string;
  allowed?: readonly string[];
}): UsageError {
  const option =
    Object.entries(PARAMETER_OF).find(([, parameter]) => parameter === problem.parameter)?.[0] ??
    (problem.parameter === 'has_gpu' ? 'gpu' : problem.parameter);
  const allowed = problem.allowed ? ` (allowed: ${problem.allowed.join(', ')})` : '';
  return new UsageError(
    `--${option} ${JSON.stringify(problem.value)}: ${problem.reason}${allowed}`,
    'instances',
  );
}

interface InstancesBody {
  data: {
    instances: InstanceRecord[];
    pagination: { total: number; limit: number; offset: number; has_more: boolean };
    metadata: { last_sync: string | null };
  };
}

const GIB = 1024;

/** `4` for 4096 MB, `0.5` for 512 MB: memory in GiB as people read it. */
function gib(memoryMb: number): string {
  return String(Math.round((memoryMb / GIB) * 100) / 100);
}

export function formatInstancesTable(body: InstancesBody, monthlyDigits: number): string {
  const { instances, pagination, metadata } = body.data;
  const currency = instances[0]?.pricing.currency ?? 'USD';
  const rows = instances.map((r) => [
    r.provider.name,
    r.region.region_code,
    r.instance_id,
    String(r.vcpu),
    gib(r.memory_mb),
    String(r.storage_gb),
    r.gpu_count > 0 ? `${r.gpu_count}x ${r.gpu_type ?? 'GPU'}` : '-',
    // D62 and D63: '-' where the fact is not recorded (never guessed).
    r.cpu.architecture ?? '-',
    r.cpu.allocation ?? '-',
    r.benchmark === null ? '-' : String(r.benchmark.coremark),
    r.pricing.hourly_price.toFixed(4),
    r.pricing.monthly_price.toFixed(monthlyDigits),
  ]);
  const table = formatTable(
    [
      { title: 'PROVIDER' },
      { title: 'REGION' },
      { title: 'INSTANCE' },
      { title: 'VCPU', numeric: true },
      { title: 'MEMORY_GB', numeric: true },
      { title: 'STORAGE_GB', numeric: true },
      { title: 'GPU' },
      { title: 'ARCH' },
      { title: 'ALLOCATION' },
      { title: 'COREMARK', numeric: true },
      { title: `HOURLY_${currency}`, numeric: true },
      { title: `MONTHLY_${currency}`, numeric: true },
    ],
    rows,
  );
  const first = pagination.offset + 1;
  const last = pagination.offset + instances.length;
  const more = pagination.has_more ? '; --offset for more' : '';
  // D61: say which option the prices are when it is not the list price.
  const option = instances[0]?.pricing.purchase_option ?? 'on_demand';
  const priced = option === 'on_demand' ? '' : `; prices: ${option}`;
  return `${table}\n\n${first}-${last} of ${pagination.total} record(s)${more}${priced}; last sync ${metadata.last_sync ?? 'never'}`;
}

export async function runInstancesCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs('instances', args, OPTIONS, false);
  if (values.help === true) {
    io.out(INSTANCES_USAGE);
    return EXIT_OK;
  }
  const format = outputFormat('instances', values.format);
  const raw = instancesQueryOf(values);
  // An export is the whole filtered result in one call, up to the API's CSV cap (D47); a page
  // for people (table) or for the JSON body stays the API's JSON page.
  const csv = format === 'csv';
  if (csv) raw['limit'] ??= String(CSV_MAX_LIMIT);
  const limits = { maxLimit: csv ? CSV_MAX_LIMIT : MAX_LIMIT };
  // Everything but the currency is checked before anything is opened, so a typo costs nothing;
  // the currencies allowed depend on the exchange rates the services load.
  const config = configOf(io);
  const early = parseInstanceQuery({ ...raw, currency: undefined }, undefined, limits);
  if (!early.ok) throw usageErrorOf(early.problem);

  return withServices(config, io, async (services) => {
    const parsed = parseInstanceQuery(raw, services.rates.current(), limits);
    if (!parsed.ok) throw usageErrorOf(parsed.problem);
    let shown: number;
    let total: number;
    if (csv) {
      // The same code and source as GET /instances?format=csv.
      const exported = await exportInstancesCsv(services, parsed.value, undefined, true);
      io.write(exported.csv);
      ({ total } = exported);
      shown = Math.max(0, Math.min(total - parsed.value.query.offset, parsed.value.query.limit));
      const { offset } = parsed.value.query;
      if (shown > 0 && offset + shown < total) {
        io.err(
          `cloudprice instances: records ${offset + 1}-${offset + shown} of ${total} written; --offset for more`,
        );
      }
    } else {
      const bytes = await services.listing.list(parsed.value);
      const body = JSON.parse(bytes.toString('utf8')) as InstancesBody;
      shown = body.data.instances.length;
      total = body.data.pagination.total;
      if (format === 'json') io.out(bytes.toString('utf8'));
      else if (shown > 0) io.out(formatInstancesTable(body, parsed.value.money.monthlyDigits));
    }
    if (shown > 0) return EXIT_OK;
    // Nothing to show: say why on stderr (stdout keeps the machine-readable answer).
    if (
      (services.catalog.current ?? (await services.catalog.ready())).lastSuccessfulSync === null
    ) {
      io.err('cloudprice instances: the catalogue is empty; run `cloudprice sync` first');
      return EXIT_NO_DATA;
    }
    io.err(`cloudprice instances: no instance matches (${total} in total)`);
    return EXIT_NO_MATCH;
  });
}
