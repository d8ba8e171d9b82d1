// Webhook fan-out benchmark (issue 22 item 2): `npx tsx bench/webhook-fanout.ts`.
//
// Times the first provider_c sync's apply (the real bundled snapshot, parsed once through the
// real adapter) into an empty database with 0 and with 100 webhook subscribers (every event, no
// filter: the most any key holder can make), on SQLite and on PostgreSQL (TEST_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/test, in a schema of its own). Each case runs
// REPEAT times on a fresh database, alternating 0 and 100 so load drifts hit both alike; the
// median is reported. Also reported: what the queue holds afterwards (events, delivery rows,
// payload bytes stored) and the heap growth seen during the apply (sampled every 5 ms).
// Target: 100 subscribers add at most 20 % to the apply time. Writes its section of
// docs/performance.md (not with --dry); exits 1 on a miss.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createProviderAdapters } from '../src/sync/provider-adapters.js';
import { createCatalogStore } from '../src/storage/create-catalog-store.js';
import { openSqlite } from '../src/storage/sqlite/open-sqlite.js';
import type { ProviderCatalog } from '../src/catalog/offers.js';
import { machineLine, uptime, writeSection } from './support/report.js';

const SUBSCRIBERS = [0, 100] as const;
const REPEAT = Number(process.env['REPEAT'] ?? 5);
const TARGET = 1.2;
const PG_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface QueueStats {
  readonly events: number;
  readonly deliveries: number;
  /** Bytes of JSON bodies stored (length of every stored payload). */
  readonly payloadBytes: number;
}

/**
 * What the queue holds, read with one scalar query at a time (the same SQL on both backends).
 * Before migration 007 there is no webhook_events table: each delivery row carried its body.
 */
async function queueStats(scalar: (text: string) => Promise<number>): Promise<QueueStats> {
  const deliveries = await scalar('select count(*) as n from webhook_deliveries');
  try {
    return {
      events: await scalar('select count(*) as n from webhook_events'),
      deliveries,
      payloadBytes: await scalar(
        'select coalesce(sum(length(payload)), 0) as n from webhook_events',
      ),
    };
  } catch {
    return {
      events: deliveries,
      deliveries,
      payloadBytes: await scalar(
        'select coalesce(sum(length(payload)), 0) as n from webhook_deliveries',
      ),
    };
  }
}

interface Sample {
  readonly ms: number;
  readonly heapGrowthMb: number;
  readonly queue: QueueStats;
}

interface Database_ {
  readonly url: string;
  stats(): Promise<QueueStats>;
  drop(): Promise<void>;
}

function sqliteDatabase(): Database_ {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cloudprice-fanout-'));
  const file = path.join(dir, 'catalog.db');
  return {
    url: `sqlite:${file}`,
    stats: async () => {
      const db = openSqlite(file, { readonly: true });
      try {
        return await queueStats((text) =>
          Promise.resolve(Number((db.prepare(text).get() as { n: unknown }).n)),
        );
      } finally {
        db.close();
      }
    },
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function postgresDatabase(): Promise<Database_> {
  const schema = `cp_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      return (await client.query(text)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  await admin(`create schema "${schema}"`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    stats: async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await queueStats(async (text) =>
          Number((await client.query<{ n: unknown }>(text)).rows[0]?.n),
        );
      } finally {
        await client.end();
      }
    },
    drop: () => admin(`drop schema if exists "${schema}" cascade`).then(() => undefined),
  };
}

async function once(
  backend: 'sqlite' | 'postgres',
  subscribers: number,
  catalog: ProviderCatalog,
): Promise<Sample> {
  const database = backend === 'sqlite' ? sqliteDatabase() : await postgresDatabase();
  const store = await createCatalogStore(database.url, {});
  try {
    await store.migrate();
    for (let i = 0; i < subscribers; i++) {
      await store.webhooks.create(
        {
          url: `http://127.0.0.1:9/hook/${i}`,
          secret: 'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2hiZW5jaGJlbmNoYmU=',
          events: ['sync.completed', 'sync.failed', 'price.changed'],
          filter: {},
          createdAt: new Date(),
        },
        100,
      );
    }
    const completedAt = new Date();
    const run = {
      syncId: `sync_${completedAt.getTime()}_bench${randomUUID().slice(0, 7)}`,
      provider: 'provider_c' as const,
      startedAt: new Date(completedAt.getTime() - 1_000),
      completedAt,
    };
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 5);
    const started = performance.now();
    await store.applyProviderCatalog(catalog, run);
    const ms = performance.now() - started;
    clearInterval(sampler);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    await store.close();
    return { ms, heapGrowthMb: (heapPeak - heapBefore) / 2 ** 20, queue: await database.stats() };
  } finally {
    await store.close().catch(() => undefined);
    await database.drop();
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function main(): Promise<void> {
  const loadBefore = uptime();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudprice-fanout-data-'));
  const config = loadConfig({ API_KEYS: 'bench-key-0123456789abcdef', DATA_DIR: dataDir });
  const catalog = await createProviderAdapters(config).provider_c!.fetchCatalog(
    AbortSignal.timeout(120_000),
  );
  rmSync(dataDir, { recursive: true, force: true });
  const rows: string[] = [];
  let missed = false;
  for (const backend of ['sqlite', 'postgres'] as const) {
    const samples = new Map<number, Sample[]>(SUBSCRIBERS.map((n) => [n, []]));
    // One warm-up of each, not counted.
    for (const n of SUBSCRIBERS) await once(backend, n, catalog);
    for (let i = 0; i < REPEAT; i++) {
      for (const n of SUBSCRIBERS) samples.get(n)!.push(await once(backend, n, catalog));
    }
    const base = median(samples.get(0)!.map((s) => s.ms));
    for (const n of SUBSCRIBERS) {
      const list = samples.get(n)!;
      const ms = median(list.map((s) => s.ms));
      const ratio = ms / base;
      if (ratio > TARGET) missed = true;
      const { events, deliveries, payloadBytes } = list[0]!.queue;
      rows.push(
        `| ${backend} | ${n} | ${ms.toFixed(0)} (${list.map((s) => s.ms.toFixed(0)).join(', ')}) | ${ratio.toFixed(2)} | ${events} | ${deliveries} | ${(payloadBytes / 1e6).toFixed(2)} | ${median(list.map((s) => s.heapGrowthMb)).toFixed(0)} |`,
      );
      console.log(rows.at(-1));
    }
  }
  const markdown = `## Webhook fan-out in the sync apply (issue 22 item 2)

\`npx tsx --expose-gc bench/webhook-fanout.ts\` (REPEAT=${REPEAT}): the first provider_c sync's
apply of the bundled snapshot (${catalog.offers.length.toLocaleString('en')} records) into an
empty database, with 0 and with 100 subscribers to every event and no filter. Median of
${REPEAT} runs each, alternating, after one warm-up; every run in brackets. Events, delivery
rows and payload bytes are what the queue holds after the apply; heap growth is the largest
heap increase sampled (every 5 ms) during the apply. Target: 100 subscribers add at most 20 %.

${machineLine()}; load before ${loadBefore}, after ${uptime()}.

| backend | subscribers | apply ms (runs) | × of 0 | events | delivery rows | payload MB stored | heap growth MB |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
  // --dry: print only (a run of another commit, to compare).
  if (!process.argv.includes('--dry')) writeSection('webhook-fanout', markdown);
  console.log(missed ? 'TARGET MISSED' : 'target met');
  process.exitCode = missed ? 1 : 0;
}

await main();
