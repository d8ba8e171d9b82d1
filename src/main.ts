// Process entry: read config, build services, fill an empty catalogue, listen, close gracefully.
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './http/app.js';
import { scheduleRateRefresh } from './fx/rates-schedule.js';
import { createServices } from './services.js';
import { scheduleSyncs, syncIfEmpty } from './sync/sync-schedule.js';

async function main(): Promise<void> {
  // A .env file in the working directory fills in variables not already set.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`cloudprice: configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }

  const bootLog = {
    info: (obj: unknown, msg: string) =>
      console.log(JSON.stringify({ level: 'info', msg, ...(obj as object) })),
    error: (obj: unknown, msg: string) =>
      console.error(JSON.stringify({ level: 'error', msg, ...(obj as object) })),
  };
  const services = await createServices(config, bootLog);
  const app = await buildApp(services);
  const log = app.log;

  if (await syncIfEmpty(services.store, services.sync)) {
    log.info(
      { available: await services.store.countAvailable() },
      'empty catalogue filled from the configured sources',
    );
  }
  const stopSchedule = scheduleSyncs(
    services.store,
    services.sync,
    config.syncIntervalMs,
    (error) => log.error({ err: error }, 'scheduled sync failed'),
  );

  const stopRates = scheduleRateRefresh(services.rates, config.syncIntervalMs);

  const address = await app.listen({ port: config.port, host: config.host });
  const { keys } = services;
  console.log(`cloudprice listening on ${address}`);
  if (keys.generatedKey !== undefined) {
    console.log(`Generated an API key (stored in ${keys.file}, mode 0600). Send it as X-API-Key:`);
    console.log(`  ${keys.generatedKey}`);
  } else if (keys.source === 'data-dir') {
    console.log(`API keys: ${keys.file} (send one as X-API-Key)`);
  } else {
    console.log(`API keys: from ${keys.source}`);
  }
  console.log(`Try: curl -H "X-API-Key: <key>" ${address}/instances?limit=5`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    stopSchedule();
    stopRates();
    services.sync.abortAll();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void app
      .close()
      .then(() => services.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('cloudprice: failed to start:', error);
  process.exit(1);
});
