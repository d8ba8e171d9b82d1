// `cloudprice sync [provider ...]`: the same core sync as POST /sync (D21 to D24), run in this
// process against the configured database, without going through HTTP or its rate limit.
// The registry installs the providers the usage text lists (read when this module loads).
import '../providers/registry.js';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../catalog/model.js';
import type { ProviderSyncResult, SyncReport } from '../sync/sync-service.js';
import {
  configOf,
  EXIT_FAILURE,
  EXIT_OK,
  outputFormat,
  parseCommandArgs,
  UsageError,
  withServices,
  type CliIo,
} from './cli-common.js';
import { formatTable } from './text-table.js';

export const SYNC_USAGE = `Usage: cloudprice sync [provider ...] [--force] [--format table|json]

Fetches the named providers' catalogues (default: ${PROVIDER_NAMES.join(' ')}) from their
configured sources and stores each one atomically, as POST /sync does. Prints one row per
provider; exit code 0 if every provider succeeded, 1 if any failed, 2 for bad arguments.

  --force        apply a catalogue even when it leaves one of our regions that had records with
                 none (refused otherwise; a catalogue with none at all is always refused)
  --format json   print the full sync report (the shape of POST /sync's data) instead of a
                 table (--json is the same)

On a terminal, a progress line shows which providers are still running.`;

/**
 * The distinct providers to sync, in the order given; all of them when none is named.
 * Unknown names are a usage error that lists them all at once.
 */
export function providersToSync(names: readonly string[]): ProviderName[] {
  if (names.length === 0) return [...PROVIDER_NAMES];
  const unknown = names.filter((name) => !isProviderName(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown provider(s): ${unknown.join(', ')}; supported: ${PROVIDER_NAMES.join(', ')}`,
      'sync',
    );
  }
  return [...new Set(names.filter(isProviderName))];
}

/** A fixed-width table, one row per provider, then a summary line. */
export function formatSyncTable(report: SyncReport): string {
  const columns = [
    { title: 'PROVIDER' },
    { title: 'STATUS' },
    { title: 'REGIONS', numeric: true },
    { title: 'INSTANCES', numeric: true },
    { title: 'PRICES', numeric: true },
    { title: 'DURATION', numeric: true },
    { title: 'ERROR' },
  ];
  const rows = report.providers.map((p) => [
    p.provider,
    p.success ? 'ok' : 'FAILED',
    String(p.regions_synced),
    String(p.instances_synced),
    String(p.pricing_synced),
    `${p.duration_ms} ms`,
    p.error_details ? `${p.error_details.code}: ${p.error_details.message}` : '',
  ]);
  const { summary } = report;
  return [
    formatTable(columns, rows),
    '',
    `${summary.successful_providers} of ${summary.total_providers} provider(s) synced: ` +
      `${summary.total_regions} regions, ${summary.total_instances} instances, ` +
      `${summary.total_pricing} prices in ${report.total_duration_ms} ms (${report.sync_id})`,
  ].join('\n');
}

/**
 * The progress line on a terminal: which providers are still running and which finished, with
 * the elapsed time, redrawn every second (a live sync of offer files takes minutes).
 */
function syncProgress(
  providers: readonly ProviderName[],
  show: (line: string | undefined) => void,
) {
  const started = Date.now();
  const finished: string[] = [];
  const running = new Set(providers);
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const done = finished.length > 0 ? `; done: ${finished.join(', ')}` : '';
    show(
      `syncing ${[...running].join(', ')} (${finished.length} of ${providers.length} done${done}) ${seconds} s`,
    );
  };
  draw();
  const timer = setInterval(draw, 1_000);
  return {
    done: (result: ProviderSyncResult) => {
      running.delete(result.provider);
      finished.push(`${result.provider} ${result.success ? 'ok' : 'FAILED'}`);
      draw();
    },
    stop: () => {
      clearInterval(timer);
      show(undefined);
    },
  };
}

export async function runSyncCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'sync',
    args,
    {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      format: { type: 'string' },
      force: { type: 'boolean' },
    },
    true,
  );
  if (values.help === true) {
    io.out(SYNC_USAGE);
    return EXIT_OK;
  }
  // Checked before anything is opened, so a typo costs nothing.
  const json =
    values.json === true || outputFormat('sync', values.format, ['table', 'json']) === 'json';
  const config = configOf(io);
  const providers = providersToSync(positionals);
  const report = await withServices(config, io, async (services) => {
    const progress = io.progress === undefined ? undefined : syncProgress(providers, io.progress);
    try {
      return await services.sync.sync(providers, {
        force: values.force === true,
        ...(progress !== undefined && { onProviderDone: progress.done }),
      });
    } finally {
      progress?.stop();
    }
  });
  io.out(json ? JSON.stringify(report, null, 2) : formatSyncTable(report));
  return report.success ? EXIT_OK : EXIT_FAILURE;
}
