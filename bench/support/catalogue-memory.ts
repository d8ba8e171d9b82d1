// What a catalogue costs the shipped server (bench:large, bench:world): its RSS once settled,
// the same server's on an empty catalogue, and the index build time the server logs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEY, NEW_FILTER_PATH, startApp } from './app-bench.js';
import { CLIENT_HEADER } from './bench-settings.js';
import type { ShippedServer } from './shipped-server.js';

/**
 * RSS (MB) once the server has answered 50 new filters and settled for 2 s: what it holds to
 * serve, the warm-up's garbage mostly collected.
 */
export async function settledRss(app: ShippedServer, prefix: string): Promise<number> {
  const url = await app.url;
  for (let i = 0; i < 50; i += 1) {
    const response = await fetch(`${url}${NEW_FILTER_PATH.replace('{price}', `${30 + i}`)}`, {
      headers: { 'x-api-key': KEY, [CLIENT_HEADER]: `${prefix}-${i}` },
    });
    if (response.status !== 200) throw new Error(`warm-up answered ${response.status}`);
    await response.arrayBuffer();
  }
  await sleep(2_000);
  return app.rssMb();
}

/**
 * Settled RSS of the server on an empty catalogue: every provider's source is an empty
 * directory, so the start-up fill fails (logged) and the server answers with no records.
 */
export async function emptyServerRss(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-empty-'));
  try {
    const sources = path.join(dir, 'no-sources');
    mkdirSync(sources);
    const nowhere = pathToFileURL(sources).href;
    const empty = startApp(dir, {
      PROVIDER_A_URL: nowhere,
      PROVIDER_B_URL: nowhere,
      PROVIDER_C_URL: nowhere,
      UPSTREAM_MAX_RETRIES: '0',
    });
    try {
      return await settledRss(empty, 'empty');
    } finally {
      await empty.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The build time the app logged for its first index (engine: "catalogue index built"). */
export function indexBuildMs(app: ShippedServer): number | undefined {
  const line = app.logs.find((l) => l.msg === 'catalogue index built');
  return typeof line?.build_ms === 'number' ? line.build_ms : undefined;
}
