// Issue 15 item 9 and the IPv6 suspicion: what the rate limit and the failed-authentication
// limit count a client by, over real sockets (a repeated header exists only on the wire).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURE_LIMIT } from '../../src/http/app.js';
import { clientKey } from '../../src/http/client-address.js';
import { INSTANCES_RATE_LIMIT } from '../../src/http/routes/instances.js';
import { FIXED_NOW, TEST_API_KEY, createTestApp, type TestApp } from '../support/test-app.js';

/** One request on a new connection, written byte for byte; resolves with the status code. */
async function rawStatus(port: number, headerLines: readonly string[]): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  socket.write(
    [
      'GET /health HTTP/1.1',
      'Host: cloudprice.test',
      'X-API-Key: not-a-valid-key-0123456789',
      ...headerLines,
      'Connection: close',
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  if (status === undefined) throw new Error(`no status line in ${JSON.stringify(received)}`);
  return Number(status);
}

describe('the client address behind CLIENT_IP_HEADER', () => {
  let t: TestApp;
  let port: number;
  let minute = 0;

  beforeAll(async () => {
    t = await createTestApp({ CLIENT_IP_HEADER: 'X-Real-IP' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(() => t.close());

  /** Each test counts in a clock minute of its own (the limiter's windows are clock minutes). */
  function nextMinute(): void {
    minute += 1;
    t.setNow(FIXED_NOW + minute * 60_000);
  }

  /** Spends the failed-authentication budget with `AUTH_FAILURE_LIMIT` requests, all 401. */
  async function spendAuthFailures(headersOf: (i: number) => string[]): Promise<void> {
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) {
      expect(await rawStatus(port, headersOf(i))).toBe(401);
    }
  }

  it('a repeated client-address header falls back to the socket address', async () => {
    nextMinute();
    // Node joins these into "198.51.100.7, 203.0.113.<i>": a new string, and so a new bucket,
    // per request unless the repeat is refused.
    await spendAuthFailures((i) => ['X-Real-IP: 198.51.100.7', `X-Real-IP: 203.0.113.${i}`]);
    // Counted against the socket's address: a request from it without the header is over.
    expect(await rawStatus(port, [])).toBe(429);
    expect(await rawStatus(port, ['X-Real-IP: 198.51.100.7', 'X-Real-IP: 203.0.113.99'])).toBe(429);
    // The edge-reported client itself was never charged.
    expect(await rawStatus(port, ['X-Real-IP: 198.51.100.7'])).toBe(401);
  });

  it('a comma-joined client-address value falls back to the socket address', async () => {
    nextMinute();
    await spendAuthFailures((i) => [`X-Real-IP: 198.51.100.8, 203.0.113.${i}`]);
    expect(await rawStatus(port, [])).toBe(429);
    expect(await rawStatus(port, ['X-Real-IP: 198.51.100.8'])).toBe(401);
  });

  it('counts IPv6 clients per /64: rotating the interface identifier gives no fresh bucket', async () => {
    nextMinute();
    await spendAuthFailures((i) => [
      `X-Real-IP: 2001:db8:1:2:${((i * 4099) % 0x10000).toString(16)}::${i}`,
    ]);
    expect(await rawStatus(port, ['X-Real-IP: 2001:db8:1:2:ffff:ffff:ffff:ffff'])).toBe(429);
    expect(await rawStatus(port, ['X-Real-IP: 2001:0db8:0001:0002::1'])).toBe(429);
    // The neighbouring /64 and the socket's own address are other clients.
    expect(await rawStatus(port, ['X-Real-IP: 2001:db8:1:3::1'])).toBe(401);
    expect(await rawStatus(port, [])).toBe(401);
  });

  it('counts IPv6 clients per /64 for the route rate limit too', async () => {
    nextMinute();
    const send = (address: string) =>
      t.app.inject({
        method: 'GET',
        url: '/instances?limit=1',
        headers: { 'x-api-key': TEST_API_KEY, 'x-real-ip': address },
      });
    for (let i = 1; i <= INSTANCES_RATE_LIMIT; i++) {
      expect((await send(`2001:db8:aa:bb::${i.toString(16)}`)).statusCode).toBe(200);
    }
    expect((await send('2001:db8:aa:bb:1:2:3:4')).statusCode).toBe(429);
    expect((await send('2001:db8:aa:bc::1')).statusCode).toBe(200);
  });
});

describe('clientKey', () => {
  it('keeps IPv4 addresses, keys IPv6 by /64 and IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:DB8:0001:0002:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::ffff:192.0.2.33')).toBe('192.0.2.33');
    expect(clientKey('::ffff:c000:221')).toBe('192.0.2.33');
    expect(clientKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(clientKey('1.1.1.1, 2.2.2.2')).toBeUndefined();
    expect(clientKey('client-7')).toBeUndefined();
  });
});
