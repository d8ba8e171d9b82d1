// Measures the hit path of the two /instances response-cache designs weighed in
// docs/adr/0004-shared-cache-local-lru-with-redis-invalidation.md:
//   - local: an lru-cache in the replica's memory holding the serialised body (what we ship);
//   - redis: the same bytes held in Redis and read with GET over ioredis.
// Each design serves the same ~25 KB body (a page of ~55 real-shaped records), under the
// same lru-cache settings InstanceListing uses and the connection options the app uses for Redis.
//
// Run: npx tsx bench/cache-choice.bench.ts        (REDIS_URL, default redis://127.0.0.1:6379)
// Prints ops/s and p50/p99 latency per hit. Latencies are per operation, timed with
// process.hrtime.bigint(); ops/s come from the same runs (wall time over operations).
import { randomUUID } from 'node:crypto';
import { loadavg, cpus } from 'node:os';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import { toInstanceRecord } from '../src/catalog/instance-json.js';
import { regionsOf } from '../src/catalog/model.js';
import {
  closeRedisConnection,
  createRedisConnection,
  whenRedisReady,
} from '../src/infra/redis/redis-connection.js';
import { UNKNOWN_MACHINE_FACTS } from '../src/catalog/machine-facts.js';
import type { InstanceRow } from '../src/catalog/records.js';
import { generateCatalogs } from '../test/support/generate-catalog.js';
import { recordOptions } from '../src/catalog/purchase-options.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** Distinct cached queries; hits rotate over them so neither side reads one hot key only. */
const KEYS = 100;
const CONCURRENCY = 50;

/** Bytes of one cached body: a /instances page of about 55 records is this size. */
const BODY_BYTES = 25 * 1024;

/** A /instances body as InstanceListing builds it (records, pagination, metadata), >= BODY_BYTES. */
function responseBody(seed: number): Buffer {
  const offers = generateCatalogs(300, seed).flatMap((c) => c.offers.map((o) => ({ c, o })));
  const rows = offers.map(({ c, o }, i): InstanceRow => {
    const region = regionsOf(c.provider).find((r) => r.regionCode === o.regionCode);
    return {
      id: i + 1,
      instanceId: o.instanceId,
      instanceName: o.instanceName,
      vcpu: o.vcpu,
      memoryMb: o.memoryMb,
      storageGb: o.storageGb,
      transferTb: o.transferTb,
      networkSpeedGbps: o.networkSpeedGbps,
      gpuCount: o.gpuCount,
      gpuType: o.gpuType,
      family: o.family,
      providerId: 1,
      providerName: c.provider,
      providerDisplayName: 'Provider X',
      regionId: 1,
      regionCode: o.regionCode,
      regionName: region?.regionName ?? o.regionCode,
      countryCode: region?.countryCode ?? 'JP',
      hourlyMicros: o.hourlyMicros,
      monthlyMicros: o.monthlyMicros,
      available: 1,
      observedAt: Date.UTC(2024, 1, 21, 8, 20, 21),
      purchaseOption: 'on_demand',
      options: recordOptions(o, Date.UTC(2024, 1, 21, 8, 20, 21)),
      spotAdvice: null,
      facts: o.facts ?? UNKNOWN_MACHINE_FACTS,
    };
  });
  const records = rows.map((row) => JSON.stringify(toInstanceRecord(row)));
  let count = 0;
  for (let bytes = 400; bytes < BODY_BYTES && count < records.length; count += 1) {
    bytes += records[count]!.length + 1;
  }
  const body = {
    success: true,
    data: {
      instances: records.slice(0, count).map((r): unknown => JSON.parse(r)),
      pagination: { total: 1234, limit: count, offset: 0, has_more: true },
      metadata: {
        cached: true,
        last_sync: new Date().toISOString(),
        query_time_ms: 0,
        filters_applied: { region: 'ap-northeast-1', min_vcpu: 2 },
      },
    },
  };
  return Buffer.from(JSON.stringify(body));
}

interface Result {
  readonly name: string;
  readonly ops: number;
  readonly opsPerSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

function summarise(name: string, latenciesNs: BigInt64Array, wallNs: bigint): Result {
  const sorted = [...latenciesNs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (q: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return {
    name,
    ops: sorted.length,
    opsPerSecond: Math.round((sorted.length / Number(wallNs)) * 1e9),
    p50Us: at(0.5) / 1000,
    p99Us: at(0.99) / 1000,
  };
}

/** `workers` async loops sharing `ops` operations; each operation timed on its own. */
async function run(
  name: string,
  ops: number,
  workers: number,
  op: (i: number) => Promise<number> | number,
): Promise<Result> {
  const latencies = new BigInt64Array(ops);
  let next = 0;
  let checksum = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < ops; i = next++) {
        const t0 = process.hrtime.bigint();
        checksum += await op(i);
        latencies[i] = process.hrtime.bigint() - t0;
      }
    }),
  );
  const wall = process.hrtime.bigint() - started;
  if (checksum <= 0) throw new Error(`${name}: no bytes read`);
  return summarise(name, latencies, wall);
}

/**
 * The same for a synchronous operation (the local hit path: no await). It has no concurrent
 * variant: the event loop runs synchronous gets one after another whatever the number of
 * requests in flight, so 50 concurrent requests each pay exactly this.
 */
function runSync(name: string, ops: number, op: (i: number) => number): Result {
  const latencies = new BigInt64Array(ops);
  let checksum = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < ops; i += 1) {
    const t0 = process.hrtime.bigint();
    checksum += op(i);
    latencies[i] = process.hrtime.bigint() - t0;
  }
  const wall = process.hrtime.bigint() - started;
  if (checksum <= 0) throw new Error(`${name}: no bytes read`);
  return summarise(name, latencies, wall);
}

/**
 * The local design's consistency window: from PUBLISH on one connection until another
 * connection's subscriber has the message (what RedisInvalidationBus does between replicas).
 * Reported as "ops" = messages, one at a time.
 */
async function invalidationDelay(prefix: string): Promise<Result> {
  const channel = `${prefix}invalidate`;
  const publisher = createRedisConnection(REDIS_URL, 'bench-publisher');
  const subscriber = createRedisConnection(REDIS_URL, 'bench-subscriber');
  try {
    await Promise.all([whenRedisReady(publisher, 5_000), whenRedisReady(subscriber, 5_000)]);
    await subscriber.subscribe(channel);
    let received: (() => void) | undefined;
    subscriber.on('message', () => received?.());
    return await run('invalidation: PUBLISH -> other connection receives', 2_000, 1, async () => {
      const arrived = new Promise<void>((resolve) => (received = resolve));
      await publisher.publish(channel, 'x');
      await arrived;
      return 1;
    });
  } finally {
    await Promise.all([closeRedisConnection(publisher), closeRedisConnection(subscriber)]);
  }
}

async function main(): Promise<void> {
  const bodies = Array.from({ length: KEYS }, (_, i) => responseBody(i + 1));
  const bodyBytes = Math.round(bodies.reduce((n, b) => n + b.length, 0) / KEYS);
  const keys = bodies.map((_, i) => `instances:q${i}`);

  // Exactly InstanceListing's cache settings.
  const lru = new LRUCache<string, Buffer>({
    max: 1000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (body) => body.length,
    ttl: 300_000,
  });
  bodies.forEach((body, i) => lru.set(keys[i]!, body));
  const lruGet = (i: number) => lru.get(keys[i % KEYS]!)?.length ?? 0;

  const redis: Redis = createRedisConnection(REDIS_URL, 'bench-cache-choice');
  const prefix = `cloudprice-bench:${process.pid}:${randomUUID().slice(0, 8)}:`;
  try {
    await whenRedisReady(redis, 5_000);
    const info = await redis.info('server');
    const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    for (let i = 0; i < KEYS; i += 1) await redis.set(prefix + keys[i]!, bodies[i]!, 'PX', 600_000);
    const redisGet = async (i: number) =>
      (await redis.getBuffer(prefix + keys[i % KEYS]!))?.length ?? 0;

    // Warm-up: JIT, connection buffers, lru-cache internals.
    runSync('warm-up', 200_000, lruGet);
    await run('warm-up', 5_000, CONCURRENCY, redisGet);

    const results = [
      runSync('local LRU get, sequential', 1_000_000, lruGet),
      await run('Redis GET (ioredis), sequential', 20_000, 1, redisGet),
      await run(`Redis GET (ioredis), ${CONCURRENCY} concurrent`, 50_000, CONCURRENCY, redisGet),
      await invalidationDelay(prefix),
    ];

    console.log(`# cache hit: local lru-cache vs Redis GET of a ${bodyBytes}-byte body`);
    console.log(
      `node ${process.version}, redis ${redisVersion} at ${REDIS_URL}, ${cpus().length} CPUs ` +
        `(${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    console.log('');
    console.log('| path | operations | ops/s | p50 (µs) | p99 (µs) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.ops} | ${r.opsPerSecond.toLocaleString('en-US')} | ${r.p50Us.toFixed(2)} | ${r.p99Us.toFixed(2)} |`,
      );
    }
  } finally {
    const written = keys.map((k) => prefix + k);
    if (redis.status === 'ready') await redis.del(...written).catch(() => undefined);
    await closeRedisConnection(redis);
  }
}

main().catch((error: unknown) => {
  console.error('cache-choice bench failed:', error);
  process.exit(1);
});
