// Serving the built web UI (D48): public files under /ui/, cache headers by kind, the UI's own
// CSP, compression, and clear answers when a file or the whole build is missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_CSP } from '../../src/http/web-ui.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const EXACT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const INDEX =
  '<!doctype html><html lang="en"><head><title>t</title><script type="module" src="/ui/assets/index-Ab12Cd34.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});\n`;

function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('the web UI build served under /ui/', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fakeBuild();
    t = await createTestApp({ WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('uses exactly the CSP of D48', () => {
    expect(UI_CSP).toBe(EXACT_CSP);
  });

  it('redirects / and /ui to /ui/ without a key', async () => {
    for (const url of ['/', '/ui']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/ui/');
    }
  });

  it('serves the HTML without a key, revalidated on every load, with the UI CSP and D12 headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/ui/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(EXACT_CSP);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(response.body).toBe(INDEX);
    const named = await t.app.inject({ method: 'GET', url: '/ui/index.html' });
    expect(named.body).toBe(INDEX);
  });

  it('marks hashed assets immutable and compresses them for clients that accept it', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/ui/assets/index-Ab12Cd34.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    const gzip = await t.app.inject({
      method: 'GET',
      url: '/ui/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toContain('Accept-Encoding');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const br = await t.app.inject({
      method: 'GET',
      url: '/ui/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const refused = await t.app.inject({
      method: 'GET',
      url: '/ui/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/ui/' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/ui/',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a missing file with the 404 envelope, never a directory listing', async () => {
    for (const url of ['/ui/assets/nope.js', '/ui/assets/', '/ui/nope.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/ui/../package.json',
      '/ui/..%2fpackage.json',
      '/ui/assets/../../package.json',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).not.toBe(200);
      expect(response.body).not.toContain('"name": "cloudprice"');
    }
  });

  it('leaves the API behind its key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/instances?limit=1' })).statusCode).toBe(401);
    const keyed = await t.app.inject({ method: 'GET', url: '/instances?limit=1', headers: auth });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});

describe('a server whose web UI is not built', () => {
  let t: TestApp;
  let empty: string;
  beforeAll(async () => {
    empty = mkdtempSync(path.join(tmpdir(), 'cloudprice-web-empty-'));
    t = await createTestApp({ WEB_DIR: empty });
  });
  afterAll(async () => {
    await t.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('says how to build it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/ui/' });
    expect(response.statusCode).toBe(503);
    const body = response.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toContain('npm run build:web');
  });
});
