// The install scripts (plain JavaScript, run before anything is compiled) and the service must
// agree on where the SQLite binary for an old Node-API lives: the scripts build it there, the
// service loads it from there (ADR 0005). Checked in a child process per runtime, because the
// answer depends on the running Node's Node-API version.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqliteBindingPlan as servicePlan } from '../../src/storage/sqlite/open-sqlite.js';
import { sqliteBindingPlan as scriptPlan } from '../../scripts/support/sqlite-node20.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The machine's Node.js 20 (Node-API 9), where the local binary is the one that loads.
const NODE_20 = '/usr/bin/node';

describe('the SQLite binding plan', () => {
  it('is the same in the install scripts and in the service on this runtime', () => {
    expect(scriptPlan()).toEqual(servicePlan());
  });

  it.skipIf(!existsSync(NODE_20))('is the same on Node-API 9, where a local binary is used', () => {
    const script = `
      import { sqliteBindingPlan as s } from './scripts/support/sqlite-node20.mjs';
      const { sqliteBindingPlan: t } = await import('./src/storage/sqlite/open-sqlite.ts');
      console.log(JSON.stringify([s(), t(), process.versions.napi]));`;
    const out = execFileSync(NODE_20, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    type Plan = { localBinary?: string };
    const [fromScript, fromService, napi] = JSON.parse(out) as [Plan, Plan, string];
    expect(Number(napi)).toBeLessThan(10);
    expect(fromScript).toEqual(fromService);
    expect(fromScript.localBinary).toContain('build-node-api-9');
  });
});
