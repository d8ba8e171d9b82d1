// A real app on a real SQLite file (or PostgreSQL / Redis when asked), for route tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import type { ProviderDefinition } from '../../src/providers/provider-definition.js';
import { PROVIDERS } from '../../src/providers/registry.js';
import { createServices, type Services } from '../../src/services.js';

export const TEST_API_KEY = 'test-key-0123456789abcdef';
export const OTHER_API_KEY = 'other-key-0123456789abcdef';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly dataDir: string;
  /** Moves the rate-limit clock; starts at a fixed minute boundary + 1 s. */
  setNow(ms: number): void;
  close(): Promise<void>;
}

export const FIXED_NOW = Date.UTC(2026, 10, 22, 3, 0, 1);

/**
 * The test copy of the bundled snapshots: provider_a and provider_b whole, provider_c a few
 * hundred of its 2,506 records, provider_d 15 of its machine types, so app tests that sync "the
 * bundled snapshots" stay quick. Tests
 * of the real catalogue read data/snapshots/ explicitly.
 */
export const FIXTURE_SNAPSHOTS = fileURLToPath(new URL('../fixtures/snapshots/', import.meta.url));

/** PROVIDER_*_URL of the test copy of the snapshots. */
export function fixtureSources(): Record<string, string> {
  const url = (provider: string) => pathToFileURL(path.join(FIXTURE_SNAPSHOTS, provider, '/')).href;
  return {
    PROVIDER_A_URL: url('provider_a'),
    PROVIDER_B_URL: url('provider_b'),
    PROVIDER_C_URL: url('provider_c'),
    // Read only when PROVIDERS enables provider_d (D65).
    PROVIDER_D_URL: url('provider_d'),
  };
}

const silent = { info: () => undefined, error: () => undefined };

/** `registry`: the providers the app serves (default: the registered ones). */
export async function createTestApp(
  env: Record<string, string> = {},
  registry: readonly ProviderDefinition[] = PROVIDERS,
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-test-'));
  const config = loadConfig(
    {
      API_KEYS: `${TEST_API_KEY},${OTHER_API_KEY}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // The test copy of the provider snapshots; the bundled exchange rates stay where they are.
      ...fixtureSources(),
      ...env,
    },
    process.cwd(),
    registry,
  );
  const created = await createServices(config, silent);
  let now = FIXED_NOW;
  const services: Services = { ...created, now: () => now, logger: false };
  const app = await buildApp(services);
  return {
    app,
    services,
    dataDir,
    setNow: (ms) => {
      now = ms;
    },
    async close() {
      await app.close();
      await created.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const auth = { 'x-api-key': TEST_API_KEY } as const;
