// Process entry: read config, build services, fill an empty catalogue, listen, close gracefully.
// Everything the process prints goes through one pino logger (D52), the banner included.
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.js';
import { scheduleRateRefresh } from './fx/rates-schedule.js';
import { buildApp } from './http/app.js';
import { createDrain } from './lifecycle/drain.js';
import { createLogger, type Logger } from './observability/logger.js';
import { startMetricsServer, type MetricsServer } from './observability/metrics-server.js';
import type { ResolvedKeys } from './keys/key-file.js';
import { createServices } from './services.js';
import { assertPortsFree, startupFailure } from './startup-errors.js';
import { scheduleSyncs, syncIfEmpty } from './sync/sync-schedule.js';

/** Exit status of a start stopped by configuration (a bad value, a port in use). */
const EXIT_CONFIG = 2;

async function main(): Promise<void> {
  // A .env file in the working directory fills in variables not already set.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // No configured logger yet: the line still has the one format, on stderr.
      createLogger({ level: 'info', format: 'json', fd: 2 }).fatal(
        { variable: error.variable },
        `configuration error: ${error.message}`,
      );
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  try {
    await run(config, log);
  } catch (error) {
    const failure = startupFailure(error, config);
    log.fatal({ err: error, variable: failure.variable }, failure.message);
    process.exit(failure.variable === undefined ? 1 : EXIT_CONFIG);
  }
}

async function run(config: Config, log: Logger): Promise<void> {
  await assertPortsFree(config);
  const services = await createServices(config, log);
  let metricsServer: MetricsServer | undefined;
  const closeServices = async () => {
    await metricsServer?.close();
    await services.close();
  };
  let stopSchedule = () => undefined as void;
  let stopRates = () => undefined as void;
  try {
    const drain = createDrain();
    const app = await buildApp({ ...services, logger: log, drain });
    drain.track(app.server);
    const { registry } = services.metrics;
    if (config.metricsPort !== undefined && registry !== undefined) {
      // Up before the first sync, so a long first fill can be watched.
      metricsServer = await startMetricsServer(
        registry,
        config.metricsHost,
        config.metricsPort,
        config.writeTimeoutMs,
      );
    }
    if (await syncIfEmpty(services.store, services.sync)) {
      log.info(
        { available: await services.store.countAvailable() },
        'empty catalogue filled from the configured sources',
      );
    }
    stopSchedule = scheduleSyncs(services.store, services.sync, config.syncIntervalMs, (error) =>
      log.error({ err: error }, 'scheduled sync failed'),
    );
    stopRates = scheduleRateRefresh(services.rates, config.syncIntervalMs);
    // Every replica delivers webhooks; the queue's leases keep each delivery to one of them.
    services.deliveries.start();

    const address = await app.listen({ port: config.port, host: config.host });
    banner(log, address, services.keys, metricsServer?.url);

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      const graceMs = config.shutdownGraceMs;
      log.info({ signal, graceMs }, 'shutting down');
      // The process is gone within the grace period and one second: the drain ends by the
      // grace period, closing the rest must not hang past that second.
      setTimeout(() => {
        log.error({ graceMs }, 'shutdown not finished one second after the grace period');
        process.exit(1);
      }, graceMs + 1_000).unref();
      stopSchedule();
      stopRates();
      // Running syncs end with SYNC_ABORTED; their providers keep the previous catalogue (D22).
      services.sync.abortAll();
      // No new delivery is claimed; attempts in flight may finish during the drain, and are
      // aborted at its end (they stay queued, and are sent again by another replica).
      const deliveriesStopped = services.deliveries.stop({ graceMs });
      const { idle } = await drain.begin(graceMs);
      log.info(
        { idle },
        idle ? 'drained: every connection closed' : 'grace period over: closing connections',
      );
      // Closes what is still open at the end of the grace period; the listening socket is
      // already closed.
      const closed = app.close();
      if (!idle) app.server.closeAllConnections();
      await closed;
      await deliveriesStopped;
      await closeServices();
    };
    const onSignal = (signal: string) => {
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
  } catch (error) {
    // Nothing half-started: whatever was opened is closed before the process reports failure.
    stopSchedule();
    stopRates();
    await closeServices();
    throw error;
  }
}

/** The start-up banner: where to send requests and with which key, as log lines (D52). */
function banner(
  processLog: Logger,
  address: string,
  keys: ResolvedKeys,
  metricsUrl: string | undefined,
): void {
  // Printed whatever LOG_LEVEL says (except silent): without it nobody learns the address or a
  // generated key. Still lines of the one logger, in its format.
  const log = processLog.child({}, { level: processLog.level === 'silent' ? 'silent' : 'info' });
  log.info({ url: address }, `cloudprice listening on ${address}`);
  // Printed once; from here on the process holds only the key's digest (D5).
  const generatedKey = keys.takeGeneratedKey();
  if (generatedKey !== undefined) {
    log.info(
      { keyFile: keys.file, apiKey: generatedKey },
      `Generated an API key (stored in ${keys.file}, mode 0600). Send it as X-API-Key: ${generatedKey}`,
    );
    // D49: a link that opens the web UI with the key in it (the page stores the key and removes
    // it from the address bar).
    const uiUrl = `${address}/ui/#key=${generatedKey}`;
    log.info({ uiUrl }, `Open the web UI: ${uiUrl}`);
    // What the link leaves behind (issue 35): the page cleans the address bar, but a browser
    // records the visited address, fragment and all, in its history before any script runs.
    log.info(
      { uiUrl: `${address}/ui/` },
      `That link puts the key in your browser's history (the page clears the address bar, not the history). To leave no trace, open ${address}/ui/ and paste the key instead.`,
    );
  } else if (keys.source === 'data-dir') {
    log.info({ keyFile: keys.file }, `API keys: ${keys.file} (send one as X-API-Key)`);
  } else {
    log.info({ keySource: keys.source }, `API keys: from ${keys.source}`);
  }
  if (generatedKey === undefined) log.info({ uiUrl: `${address}/ui/` }, `Web UI: ${address}/ui/`);
  if (metricsUrl !== undefined) {
    log.info({ metricsUrl }, `Prometheus metrics on ${metricsUrl}/metrics`);
  }
  log.info(`Try: curl -H "X-API-Key: <key>" ${address}/instances?limit=5`);
}

main().catch((error: unknown) => {
  createLogger({ level: 'info', format: 'json', fd: 2 }).fatal(
    { err: error },
    'cloudprice: failed to start',
  );
  process.exit(1);
});
