// Fills a data directory's database for the benchmarks, in a process of its own, so that the
// server started afterwards (bench/support/shipped-server.ts) carries none of the filling's
// garbage in its memory. Writes the default database of the directory (DATA_DIR/cloudprice.db),
// the one `npm start` opens.
// Usage: tsx fill-catalogue.ts <data dir> <catalogue>
//   catalogue: `snapshots` (the bundled snapshots of all three providers, synced through the
//   real adapters: the real catalogue), `generated:<records>` (test/support/generate-catalog),
//   `generated-options:<records>` (the same records, each also priced under the five other
//   purchase options and with spot advice: D61) or `empty` (nothing). A database that already
//   has records is left as it is.
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import { generateCatalogs, loadCatalogs } from '../../test/support/generate-catalog.js';

const [dataDir, catalogue = 'snapshots'] = process.argv.slice(2);
const config = loadConfig({ ...process.env, DATA_DIR: dataDir!, LOG_LEVEL: 'silent' });
const log = {
  info: () => undefined,
  warn: (obj: unknown, msg?: string) => console.error(msg, obj),
  error: (obj: unknown, msg?: string) => console.error(msg, obj),
  debug: () => undefined,
};

const services = await createServices(config, log);
if (catalogue !== 'empty' && (await services.store.countAvailable()) === 0) {
  const started = performance.now();
  if (catalogue === 'snapshots') {
    await services.sync.sync(['provider_a', 'provider_b', 'provider_c']);
  } else {
    const match = /^generated(-options)?:(\d+)$/.exec(catalogue);
    if (match === null) throw new Error(`unknown catalogue ${catalogue}`);
    const options = match[1] !== undefined;
    const extras = { optionPrices: options, spotAdvice: options };
    await loadCatalogs(services.store, generateCatalogs(Number(match[2]), 42, extras));
  }
  console.log(
    `filled ${dataDir}: ${await services.store.countAvailable()} records in ${Math.round(performance.now() - started)} ms`,
  );
}
await services.close();
process.exit(0);
