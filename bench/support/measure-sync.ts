// Child process of bench/sync.bench.ts: one provider_c sync through the real code path (file
// upstream client -> getStream -> worker scanner -> parse) of the offer-file tree under argv[2],
// or, with no argument, nothing (the baseline: the same modules loaded, no sync). Prints one
// JSON line: elapsed ms, offers, peak RSS of this process (worker threads included) and the
// API thread's worst event-loop delay while the sync ran.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createProviderCAdapter } from '../../src/providers/provider-c/adapter.js';
import { createUpstreamClient } from '../../src/sync/upstream/http-upstream-client.js';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (dir === undefined) {
    console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
    return;
  }
  const client = createUpstreamClient({
    baseUrl: pathToFileURL(`${dir}/`).href,
    connectTimeoutMs: 10_000,
    firstByteTimeoutMs: 10_000,
    totalTimeoutMs: 30 * 60_000,
    maxRetries: 0,
    maxResponseBytes: 4 * 1024 * 1024 * 1024,
    userAgent: 'cloudprice-bench',
  });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = performance.now();
  const catalog = await createProviderCAdapter({ client }).fetchCatalog(
    AbortSignal.timeout(30 * 60_000),
  );
  const ms = performance.now() - started;
  lag.disable();
  await client.close();
  console.log(
    JSON.stringify({
      ms,
      offers: catalog.offers.length,
      skipped: catalog.skippedRecords,
      maxRssKb: process.resourceUsage().maxRSS,
      maxLoopDelayMs: lag.max / 1e6,
    }),
  );
}

main().catch((err: unknown) => {
  console.error('measure-sync failed:', err);
  process.exitCode = 1;
});
