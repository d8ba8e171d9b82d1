// The served OpenAPI document lints clean with the real `redocly lint` (recommended rules plus
// ours in redocly.yaml: operationId, tags, an example on every request body and response).
// It lints whatever routes exist, so an endpoint added without them fails here.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY, createTestApp, type TestApp } from '../support/test-app.js';

const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');
const require = createRequire(import.meta.url);
const redoclyBin = path.join(
  path.dirname(require.resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer?: string }>;
}

/** Runs the redocly CLI on a document file; every problem it reports, errors and warnings. */
function lint(file: string): Promise<LintProblem[]> {
  const args = [redoclyBin, 'lint', file, '--config', path.join(repoRoot, 'redocly.yaml')];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...args, '--format', 'json'],
      {
        cwd: path.dirname(file),
        // No telemetry or update check: CI has no network beyond the package registry.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const start = stdout.indexOf('{');
        if (start === -1) {
          reject(new Error(`redocly printed no report (${error?.message ?? ''}): ${stderr}`));
          return;
        }
        const report = JSON.parse(stdout.slice(start)) as { problems: LintProblem[] };
        resolve(report.problems);
      },
    );
  });
}

const summary = (problems: LintProblem[]) =>
  problems.map(
    (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`,
  );

describe('the served OpenAPI document under redocly lint', () => {
  let t: TestApp;
  let dir: string;
  let document: Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${base}/openapi.json`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    expect(response.status).toBe(200);
    document = (await response.json()) as Record<string, unknown>;
    dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-openapi-lint-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no error and no warning', async () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    expect(summary(await lint(file))).toEqual([]);
  }, 120_000);

  it('reports an operation without operationId, tag or example (the check can fail)', async () => {
    const broken = structuredClone(document) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = broken.paths['/instances']!.get!;
    delete operation.operationId;
    operation.tags = ['undeclared'];
    const ok = (operation.responses as Record<string, { content: Record<string, object> }>)['200']!;
    delete (ok.content['application/json'] as { example?: unknown }).example;
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const rules = new Set((await lint(file)).map((p) => p.ruleId));
    expect([...rules].sort()).toEqual(
      expect.arrayContaining([
        'operation-operationId',
        'operation-tag-defined',
        'rule/media-type-example',
      ]),
    );
  }, 120_000);

  it('names the operations as clients know them', () => {
    const paths = document.paths as Record<string, Record<string, { operationId?: string }>>;
    const ids = Object.values(paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        'listInstances',
        'syncProviders',
        'recommendInstances',
        'getHealth',
        'getOpenApi',
      ]),
    );
  });
});
