// A typed client from the served document works (issue 14): openapi-typescript generates the
// types from GET /openapi.json of a real server, TypeScript type-checks a small openapi-fetch
// client (fixture/client.ts) and the mistakes it must refuse (fixture/misuse.ts), and the
// compiled client runs against that server over a real socket.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { TEST_API_KEY, createTestApp, type TestApp } from '../support/test-app.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

describe('a typed client generated from the served document', () => {
  let t: TestApp;
  let base: string;
  let work: string;

  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(60, 3));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Inside node_modules/.cache so that the client resolves openapi-fetch (and TypeScript
    // @types/node) from the project's node_modules, as it would in a user's project.
    const cache = path.join(repoRoot, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    work = mkdtempSync(path.join(cache, 'cloudprice-typed-client-'));
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('type-checks, refuses misuse, and talks to the server', async () => {
    const response = await fetch(`${base}/openapi.json`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    expect(response.status).toBe(200);
    const types = astToString(await openapiTS((await response.json()) as OpenAPI3));
    writeFileSync(path.join(work, 'api.d.ts'), types);
    for (const file of ['client.ts', 'misuse.ts']) {
      copyFileSync(path.join(here, 'fixture', file), path.join(work, file));
    }

    const program = ts.createProgram(
      ['client.ts', 'misuse.ts'].map((file) => path.join(work, file)),
      {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2023,
        lib: ['lib.es2023.d.ts'],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
        skipLibCheck: true,
        outDir: work,
        rootDir: work,
      },
    );
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(diagnostics).toEqual([]);
    expect(program.emit().emitSkipped).toBe(false);

    const result = JSON.parse(await run(path.join(work, 'client.js'), [base, TEST_API_KEY])) as {
      providers: string[];
      vcpus: number[];
      total: number;
      bestScore: number | null;
      refusedStatus: number;
      refusedCode: string;
      healthStatus: string;
    };
    expect(result.providers).toEqual(['provider_a', 'provider_a', 'provider_a']);
    expect(result.vcpus).toEqual([...result.vcpus].sort((a, b) => b - a));
    expect(result.total).toBeGreaterThan(3);
    expect(result.bestScore).toEqual(expect.any(Number));
    expect(result.refusedStatus).toBe(400);
    expect(result.refusedCode).toBe('INVALID_PARAMETER');
    expect(result.healthStatus).toBe('healthy');
    // A hang guard, not a timing assertion: generating and type-checking is heavy on a shared
    // 2-core machine.
  }, 180_000);
});
