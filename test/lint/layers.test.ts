// The layer rules (.dependency-cruiser.mjs, ADR 0018) bite: in a copy of src/, one forbidden
// import per rule makes dependency-cruiser fail with that rule, while the copy as committed
// passes. The copy is cruised by the real CLI with the real configuration, as `npm run lint` does.
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../.dependency-cruiser.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE = path.join(ROOT, 'node_modules/dependency-cruiser');
/** The `depcruise` command, as package.json's `bin` names it, run by this Node.js. */
const CLI = path.join(
  PACKAGE,
  (
    JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    }
  ).bin.depcruise ?? 'missing',
);

/** `npm run lint:layers` as package.json states it. */
const LINT_LAYERS = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts['lint:layers'];

interface Cruise {
  readonly exitCode: number;
  /** dependency-cruiser's report: one `error <rule>: <from> → <to>` per violation. */
  readonly report: string;
}

/** Runs `npm run lint:layers` (its depcruise command) in `dir`. */
async function lintLayers(dir: string): Promise<Cruise> {
  const [command, ...args] = (LINT_LAYERS ?? '').split(' ');
  expect(command).toBe('depcruise');
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: dir });
    return { exitCode: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    if (typeof failed.code !== 'number' || failed.stdout === undefined) throw error;
    return { exitCode: failed.code, report: failed.stdout };
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A copy of what `npm run lint:layers` reads: src/, the configuration, tsconfig, node_modules. */
function copyProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-layers-'));
  cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true });
  for (const file of ['.dependency-cruiser.mjs', 'tsconfig.json', 'package.json']) {
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * One forbidden import per rule: the file that gains it, the import, and where the flagged edge
 * leads (the start of the resolved path).
 */
const BREACHES: readonly {
  rule: string;
  file: string;
  specifier: string;
  to: string;
}[] = [
  {
    rule: 'domain-at-the-bottom',
    file: 'src/catalog/records.ts',
    specifier: '../storage/catalog-store.js',
    to: 'src/storage/catalog-store.ts',
  },
  {
    rule: 'storage-reads-the-domain',
    file: 'src/storage/catalog-rows.ts',
    specifier: '../config.js',
    to: 'src/config.ts',
  },
  {
    // The domain owns its models: storage reads price changes and webhook events from catalog/,
    // never from the services that make them.
    rule: 'storage-reads-the-domain',
    file: 'src/storage/history-store.ts',
    specifier: '../history/history-service.js',
    to: 'src/history/history-service.ts',
  },
  {
    rule: 'storage-reads-the-domain',
    file: 'src/storage/webhook-store.ts',
    specifier: '../events/webhook-service.js',
    to: 'src/events/webhook-service.ts',
  },
  {
    // The money view is the domain's; the rate service (fx/) is not.
    rule: 'domain-at-the-bottom',
    file: 'src/catalog/money-view.ts',
    specifier: '../fx/exchange-rates.js',
    to: 'src/fx/exchange-rates.ts',
  },
  {
    rule: 'fx-not-sync',
    file: 'src/fx/exchange-rates.ts',
    specifier: '../sync/sync-service.js',
    to: 'src/sync/sync-service.ts',
  },
  {
    rule: 'core-below-front-ends',
    file: 'src/sync/sync-service.ts',
    specifier: '../cli/text-table.js',
    to: 'src/cli/text-table.ts',
  },
  {
    rule: 'core-without-fastify',
    file: 'src/health/health-service.ts',
    specifier: 'fastify',
    to: 'node_modules/fastify/',
  },
  {
    rule: 'cli-not-http',
    file: 'src/cli/text-table.ts',
    specifier: '../http/route-table.js',
    to: 'src/http/route-table.ts',
  },
  {
    // Not even the route schemas or the error handler: the error codes live in src/api/.
    rule: 'mcp-not-http',
    file: 'src/mcp/summaries.ts',
    specifier: '../http/schemas/instances.js',
    to: 'src/http/schemas/instances.ts',
  },
  {
    rule: 'api-errors-below-front-ends',
    file: 'src/api/parameter-error.ts',
    specifier: '../http/route-table.js',
    to: 'src/http/route-table.ts',
  },
  {
    // A provider folder that imports sync: the rule names src/providers/ by path.
    rule: 'providers-below-sync',
    file: 'src/providers/example/adapter.ts',
    specifier: '../../sync/sync-service.js',
    to: 'src/sync/sync-service.ts',
  },
  {
    rule: 'upstream-clients-self-contained',
    file: 'src/sync/upstream/byte-limit.ts',
    specifier: '../sync-service.js',
    to: 'src/sync/sync-service.ts',
  },
  {
    rule: 'infra-observability-at-the-bottom',
    file: 'src/infra/ttl.ts',
    specifier: '../catalog/model.js',
    to: 'src/catalog/model.ts',
  },
  {
    // Both files are in the domain, so only the cycle rule can object: instance-json.ts reaches
    // money.ts through money-view.ts.
    rule: 'no-circular',
    file: 'src/catalog/money.ts',
    specifier: './instance-json.js',
    to: 'src/catalog/instance-json.ts',
  },
];

describe('the layer rules of npm run lint', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyProject();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs in npm run lint, so a breach fails CI', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.lint).toContain('npm run lint:layers');
  });

  it('every rule has a breach below', () => {
    const rules = (config.forbidden ?? []).map((rule) => rule.name);
    expect(new Set(BREACHES.map((b) => b.rule))).toEqual(new Set(rules));
  });

  it('passes src/ as committed', async () => {
    const result = await lintLayers(dir);
    expect(result.report).toContain('no dependency violations found');
    expect(result.exitCode).toBe(0);
  }, 180_000);

  it('fails with the rule each forbidden import breaks', async () => {
    BREACHES.forEach((breach, i) => {
      const file = path.join(dir, breach.file);
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, `\nimport type * as breach${i} from '${breach.specifier}';\n`);
    });
    writeFileSync(
      path.join(dir, 'src/providers/example/parse.ts'),
      "import '../../catalog/offers.js';\n",
    );
    const result = await lintLayers(dir);
    expect(result.exitCode).not.toBe(0);
    for (const breach of BREACHES) {
      const edge = `${escape(breach.file)} →\\s+(\\S*/)?${escape(breach.to)}`;
      // A cycle is reported from one of its modules, listing its edges one per line.
      const flagged =
        breach.rule === 'no-circular'
          ? new RegExp(`error no-circular: [^]*?${edge}`)
          : new RegExp(`error ${breach.rule}: ${edge}`);
      expect(result.report, `${breach.file} -> ${breach.specifier}`).toMatch(flagged);
    }
    // What a provider may import (the domain) is not flagged.
    expect(result.report).not.toContain('src/providers/example/parse.ts');
  }, 180_000);
});
