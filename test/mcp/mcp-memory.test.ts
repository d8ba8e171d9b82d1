// POST /mcp is stateless (D59): whatever sessions and requests come, nothing of them is kept.
// Measured in a process of its own (test/mcp/mcp-heap-child.ts), by the heap after gc() before
// and after a few thousand requests of every kind: a server or transport kept per request (the
// SDK builds a server per request, each with the six tools) would grow it by tens of kilobytes a
// request. The bound is 1 KiB a request: well under that, above what the heap after gc() drifts
// by here (about 100-300 bytes a request over a few thousand, measured 2026-11-26).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REQUESTS = 4_000;

describe('POST /mcp memory', () => {
  it('does not grow with the number of requests and session ids it has answered', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/mcp/mcp-heap-child.ts', String(REQUESTS)],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const { before, after, failures } = JSON.parse(run.stdout) as {
      before: number;
      after: number;
      failures: string[];
    };
    expect(failures).toEqual([]);
    expect(after - before).toBeLessThan(REQUESTS * 1024);
  }, 180_000);
});
