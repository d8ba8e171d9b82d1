// D65 in the CLI: `cloudprice sync` and `cloudprice instances` check provider names against the
// providers PROVIDERS enables, as the server does (in-process, on a SQLite file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installProviders } from '../../src/catalog/model.js';
import type { CliIo } from '../../src/cli/cli-common.js';
import { runInstancesCommand } from '../../src/cli/instances-command.js';
import { runSyncCommand } from '../../src/cli/sync-command.js';
import { defaultProviders } from '../../src/providers/registry.js';
import { fixtureSources } from '../support/test-app.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-cli-providers-'));
afterAll(() => {
  installProviders(defaultProviders());
  rmSync(dir, { recursive: true, force: true });
});

function io(env: Record<string, string>): CliIo & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    out: (text) => lines.push(text),
    write: (text) => lines.push(text),
    err: () => undefined,
    cwd: process.cwd(),
    env: {
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      API_KEYS: 'cli-providers-0123456789',
      ...fixtureSources(),
      ...env,
    },
  };
}

describe('the CLI with PROVIDERS', () => {
  it('syncs and lists provider_d when PROVIDERS=all', async () => {
    const sync = io({ PROVIDERS: 'all' });
    expect(await runSyncCommand(['provider_d', '--json'], sync)).toBe(0);
    const listing = io({ PROVIDERS: 'all' });
    const code = await runInstancesCommand(
      [
        '--provider',
        'provider_d',
        '--region',
        'asia-northeast1',
        '--format',
        'json',
        '--limit',
        '100',
      ],
      listing,
    );
    expect(code).toBe(0);
    const body = JSON.parse(listing.lines.join('')) as {
      data: {
        instances: { instance_id: string; vcpu: number; pricing: { monthly_price: number } }[];
      };
    };
    expect(body.data.instances.find((i) => i.instance_id === 'e2-medium')).toMatchObject({
      vcpu: 2,
      pricing: { monthly_price: 31.38 },
    });
  });

  it('refuses provider_d by default, naming the three it serves', async () => {
    await expect(runSyncCommand(['provider_d'], io({}))).rejects.toThrow(
      'supported: provider_a, provider_b, provider_c',
    );
    await expect(runInstancesCommand(['--provider', 'provider_d'], io({}))).rejects.toThrow(
      'allowed: provider_a, provider_b, provider_c',
    );
  });
});
