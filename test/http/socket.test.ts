// Over a real listening socket: what inject cannot show (chunked bodies, slow clients, HEAD).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { TEST_API_KEY, createTestApp, type TestApp } from '../support/test-app.js';

describe('over a real socket', () => {
  let t: TestApp;
  let base: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT: '1s' });
    await loadCatalogs(t.services.store, generateCatalogs(300, 11));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(() => t.close());

  it('serves /instances and then the cached bytes, with the same records', async () => {
    const first = await fetch(`${base}/instances?limit=20`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const a = (await first.json()) as {
      data: { instances: unknown[]; metadata: { cached: boolean } };
    };
    const second = await fetch(`${base}/instances?limit=20`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    const b = (await second.json()) as typeof a;
    expect(a.data.metadata.cached).toBe(false);
    expect(b.data.metadata.cached).toBe(true);
    expect(b.data.instances).toEqual(a.data.instances);
    expect(b.data.instances).toHaveLength(20);
  });

  it('answers HEAD /instances without a body', async () => {
    const response = await fetch(`${base}/instances?limit=1`, {
      method: 'HEAD',
      headers: { 'x-api-key': TEST_API_KEY },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('stops reading a chunked body at 10 KB and answers 413 in the envelope', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless body: the server must stop it, not us.
        if (sent++ > 10_000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${base}/recommend`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    expect(sent).toBeLessThan(10_000);
  });

  /** Writes raw bytes on a new connection and returns everything received until it closes. */
  async function rawExchange(bytes: string): Promise<{ received: string; elapsedMs: number }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    let received = '';
    socket.on('data', (data: Buffer) => (received += data.toString()));
    socket.on('error', () => undefined);
    socket.write(bytes);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    return { received, elapsedMs: Date.now() - started };
  }

  function envelopeOf(raw: string): { status: number; headers: string; code: string } {
    const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
    const parsed = JSON.parse(body) as { success: boolean; error: { code: string } };
    expect(parsed.success).toBe(false);
    return { status, headers: head.toLowerCase(), code: parsed.error.code };
  }

  it('does not let a client that never finishes its request hold the connection', async () => {
    const { received, elapsedMs } = await rawExchange(
      `POST /recommend HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"st`,
    );
    // REQUEST_TIMEOUT is 1 s here; this is a hang guard with a wide margin, not a timing check.
    expect(elapsedMs).toBeLessThan(10_000);
    const answer = envelopeOf(received);
    expect(answer).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    expect(answer.headers).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(answer.headers).toContain('x-content-type-options: nosniff');
  });

  it('answers headers that never end with 408 REQUEST_TIMEOUT in the envelope', async () => {
    const { received } = await rawExchange(`GET /instances HTTP/1.1\r\nHost: x\r\nX-Slow: `);
    expect(envelopeOf(received)).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('answers bytes that are not HTTP with 400 MALFORMED_REQUEST in the envelope', async () => {
    const { received } = await rawExchange('HELLO THERE\r\n\r\n');
    expect(envelopeOf(received)).toMatchObject({ status: 400, code: 'MALFORMED_REQUEST' });
  });

  it('answers oversized headers with 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const { received } = await rawExchange(
      `GET /instances HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(envelopeOf(received)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });
});
