// The real cloudprice app (createServices + buildApp, as src/main.ts builds them) on a SQLite
// file, for the benchmarks.
// Usage: app-server.ts <data dir> <catalogue> [fill-only]
//   catalogue: `snapshots` (the bundled snapshots of all three providers, synced through the
//   real adapters: the real catalogue), `generated:<records>` (test/support/generate-catalog)
//   or `empty` (nothing: the memory baseline).
//   The database is filled only when empty; `fill-only` fills it and exits, so a server started
//   afterwards carries none of the filling's garbage in its memory.
// Environment as for the service (CACHE_MAX_ENTRIES, METRICS_PORT, RATE_LIMIT_MAX_COUNTERS...).
// Prints `listening <url>` and, when METRICS_PORT is set, a `LOG {"msg":"metrics",...}` line;
// every line the services log comes out as `LOG <json>` (the harness reads build times there).
// BENCH_PROFILE_DIR: see profilerOnSignal. BENCH_MEMORY_LOG=<ms>: a `memory` line that often.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { startMetricsServer } from '../../src/observability/metrics-server.js';
import { createServices } from '../../src/services.js';
import { generateCatalogs, loadCatalogs } from '../../test/support/generate-catalog.js';
import { CLIENT_HEADER } from './bench-settings.js';

const [dataDir, catalogue = 'snapshots', mode = 'serve'] = process.argv.slice(2);
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir!,
  DATABASE_URL: path.join(dataDir!, 'bench.db'),
  LOG_LEVEL: 'silent',
  CLIENT_IP_HEADER: CLIENT_HEADER,
});
const line = (level: string) => (obj: unknown, msg?: string) =>
  console.log(`LOG ${JSON.stringify({ level, msg, ...(obj as object) })}`);
const log = {
  info: line('info'),
  warn: line('warn'),
  error: line('error'),
  debug: () => undefined,
};

const started = performance.now();
const services = await createServices(config, log);
if (catalogue !== 'empty' && (await services.store.countAvailable()) === 0) {
  const fillStarted = performance.now();
  if (catalogue === 'snapshots') {
    await services.sync.sync(['provider_a', 'provider_b', 'provider_c']);
  } else {
    const records = Number(/^generated:(\d+)$/.exec(catalogue)?.[1] ?? NaN);
    if (!Number.isInteger(records)) throw new Error(`unknown catalogue ${catalogue}`);
    await loadCatalogs(services.store, generateCatalogs(records, 42));
  }
  log.info(
    {
      records: await services.store.countAvailable(),
      fill_ms: Math.round(performance.now() - fillStarted),
    },
    'catalogue filled',
  );
}
if (mode === 'fill-only') {
  await services.close();
  process.exit(0);
}
const app = await buildApp({ ...services, logger: false });
const { registry } = services.metrics;
const metricsServer =
  config.metricsPort !== undefined && registry !== undefined
    ? await startMetricsServer(registry, '127.0.0.1', config.metricsPort)
    : undefined;
if (metricsServer) log.info({ url: metricsServer.url }, 'metrics');
const address = await app.listen({ port: 0, host: '127.0.0.1' });
log.info({ start_ms: Math.round(performance.now() - started) }, 'started');
console.log(`listening ${address}`);
const memoryEvery = Number(process.env.BENCH_MEMORY_LOG ?? 0);
if (memoryEvery > 0) {
  setInterval(() => log.info({ at: Date.now(), ...process.memoryUsage() }, 'memory'), memoryEvery);
}
const profile = await profilerOnSignal(process.env.BENCH_PROFILE_DIR);
process.on('SIGTERM', () => {
  void profile()
    .then(() => app.close())
    .then(() => metricsServer?.close())
    .then(() => services.close())
    .then(() => process.exit(0));
});

/**
 * With BENCH_PROFILE_DIR set, SIGUSR2 starts V8's CPU profiler on this (the request) thread, so
 * that a profile covers the load only, not the start-up; the returned function writes it.
 */
async function profilerOnSignal(dir: string | undefined): Promise<() => Promise<void>> {
  if (dir === undefined || dir === '') return () => Promise.resolve();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  let running = false;
  process.on('SIGUSR2', () => {
    running = true;
    void session.post('Profiler.start');
  });
  return async () => {
    if (!running) return;
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(path.join(dir, `load-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}
