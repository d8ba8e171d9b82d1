// The real cloudprice app on a SQLite file filled through the store with a realistic catalogue.
// Usage: app-server.ts <data dir> <records> ; env as for the service (CACHE_MAX_ENTRIES etc.)
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services.js';
import { generateCatalogs, loadCatalogs } from '../../test/support/generate-catalog.js';

const [dataDir, records = '4000', source = 'generated'] = process.argv.slice(2);
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir!,
  DATABASE_URL: path.join(dataDir!, 'bench.db'),
  LOG_LEVEL: 'silent',
  CLIENT_IP_HEADER: 'x-bench-client',
});
const quiet = {
  info: () => undefined,
  error: (obj: unknown, msg: string) => console.error(msg, obj),
};
const services = await createServices(config, quiet);
if ((await services.store.countAvailable()) === 0) {
  if (source === 'snapshots') await services.sync.sync(['provider_a', 'provider_b', 'provider_c']);
  else await loadCatalogs(services.store, generateCatalogs(Number(records), 42));
}
const app = await buildApp({ ...services, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => services.close())
    .then(() => process.exit(0));
});
