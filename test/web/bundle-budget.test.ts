// D48 / issue 12: the JavaScript a first load of /ui/ fetches stays at most 150 KB gzipped. The
// build is made as `npm start` makes it; every script the HTML loads (entry and preloads) counts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWebIfNeeded } from '../e2e/support/ui-server.js';

const WEB = fileURLToPath(new URL('../../dist/web/', import.meta.url));
export const FIRST_LOAD_JS_BUDGET_BYTES = 150 * 1024;

describe('the web UI build', () => {
  beforeAll(() => buildWebIfNeeded(), 120_000);

  it('loads at most 150 KB of gzipped JavaScript on first load, and no inline script', () => {
    const html = readFileSync(path.join(WEB, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="\/ui\/([^"]+)"/g)].map((m) => m[1]!);
    const preloads = [
      ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="\/ui\/([^"]+)"/g),
    ].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = [...scripts, ...preloads].reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(WEB, file)), { level: 9 }).length,
      0,
    );
    console.log(
      `first-load JavaScript: ${gzipped} bytes gzipped (budget ${FIRST_LOAD_JS_BUDGET_BYTES})`,
    );
    expect(gzipped).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
    // Every <script> has a src: nothing inline for the CSP to refuse.
    expect([...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>/g)]).toEqual([]);
    expect(html).not.toMatch(/\sstyle="/);
  });
});
