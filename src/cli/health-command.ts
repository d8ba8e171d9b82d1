// `cloudprice health`: the same report as GET /health (D32, D33), computed in this process
// against the configured database and counter store.
import type { HealthReport } from '../health/health-service.js';
import {
  configOf,
  EXIT_FAILURE,
  EXIT_OK,
  parseCommandArgs,
  withServices,
  type CliIo,
} from './cli-common.js';

export const HEALTH_USAGE = `Usage: cloudprice health

Prints the health report (the body of GET /health) as JSON. Exit code 0 when the status is
healthy, 1 when it is degraded or unhealthy (like GET /health, which answers 200 only when
healthy), 2 for bad arguments.`;

/** As GET /health: only `healthy` counts as success. */
export function healthExitCode(report: HealthReport): number {
  return report.status === 'healthy' ? EXIT_OK : EXIT_FAILURE;
}

export async function runHealthCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'health',
    args,
    { help: { type: 'boolean', short: 'h' } },
    false,
  );
  if (values.help === true) {
    io.out(HEALTH_USAGE);
    return EXIT_OK;
  }
  const report = await withServices(configOf(io), io, (services) => services.health.check());
  io.out(JSON.stringify(report, null, 2));
  return healthExitCode(report);
}
