// `cloudprice sync [provider ...]`: the same core sync as POST /sync (D21 to D24), run in this
// process against the configured database, without going through HTTP or its rate limit.
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../catalog/model.js';
import type { SyncReport } from '../sync/sync-service.js';
import {
  configOf,
  EXIT_FAILURE,
  EXIT_OK,
  parseCommandArgs,
  UsageError,
  withServices,
  type CliIo,
} from './cli-common.js';

export const SYNC_USAGE = `Usage: cloudprice sync [provider ...] [--force] [--json]

Fetches the named providers' catalogues (default: ${PROVIDER_NAMES.join(' ')}) from their
configured sources and stores each one atomically, as POST /sync does. Prints one row per
provider; exit code 0 if every provider succeeded, 1 if any failed, 2 for bad arguments.

  --force  apply a catalogue even when it removes more than half of a provider's available
           records (refused otherwise; a catalogue with none is always refused)
  --json   print the full sync report (the shape of POST /sync's data) instead of a table`;

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
  const header = ['PROVIDER', 'STATUS', 'REGIONS', 'INSTANCES', 'PRICES', 'DURATION', 'ERROR'];
  const rows = report.providers.map((p) => [
    p.provider,
    p.success ? 'ok' : 'FAILED',
    String(p.regions_synced),
    String(p.instances_synced),
    String(p.pricing_synced),
    `${p.duration_ms} ms`,
    p.error_details ? `${p.error_details.code}: ${p.error_details.message}` : '',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  // Numbers right-aligned; the last column is not padded (no trailing spaces).
  const numeric = new Set([2, 3, 4, 5]);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : numeric.has(column)
            ? cell.padStart(widths[column]!)
            : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const { summary } = report;
  return [
    line(header),
    ...rows.map(line),
    '',
    `${summary.successful_providers} of ${summary.total_providers} provider(s) synced: ` +
      `${summary.total_regions} regions, ${summary.total_instances} instances, ` +
      `${summary.total_pricing} prices in ${report.total_duration_ms} ms (${report.sync_id})`,
  ].join('\n');
}

export async function runSyncCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'sync',
    args,
    {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      force: { type: 'boolean' },
    },
    true,
  );
  if (values.help === true) {
    io.out(SYNC_USAGE);
    return EXIT_OK;
  }
  // Checked before anything is opened, so a typo costs nothing.
  const providers = providersToSync(positionals);
  const config = configOf(io);
  const report = await withServices(config, io, (services) =>
    services.sync.sync(providers, { force: values.force === true }),
  );
  io.out(values.json === true ? JSON.stringify(report, null, 2) : formatSyncTable(report));
  return report.success ? EXIT_OK : EXIT_FAILURE;
}
