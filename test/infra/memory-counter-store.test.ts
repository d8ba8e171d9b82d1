/**
 * Memory-only behaviour beyond the shared contract: the store must not grow without bound, so
 * expired counters are swept out while live ones stay.
 */
import { afterEach, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  MemoryCounterStore,
  clientStart,
  ipv4Number,
  ipv6Prefix64,
} from '../../src/infra/memory/memory-counter-store.js';
import { waitFor } from '../support/wait.js';

let store: MemoryCounterStore | undefined;
afterEach(async () => {
  await store?.close();
});

it('sweeps expired counters out of memory and keeps live ones', async () => {
  store = new MemoryCounterStore({ sweepIntervalMs: 50 });
  for (let i = 0; i < 1_000; i += 1) await store.increment(`short:${i}`, 50);
  await store.increment('long', 60_000);
  expect(store.size).toBe(1_001);
  await waitFor(() => store?.size === 1, 5_000);
  expect(await store.increment('long', 60_000)).toBe(2);
});

it('drops every counter on close', async () => {
  store = new MemoryCounterStore();
  await store.increment('a', 60_000);
  await store.close();
  expect(store.size).toBe(0);
});

it('keeps keys apart that the compact IPv4 form could confuse', async () => {
  store = new MemoryCounterStore();
  // Same address in another window or scope, a leading zero, the number as text, no prefix,
  // IPv6 and a colon-free key: each its own counter.
  const keys = [
    'rl:/instances:29000000:1.2.3.4',
    'rl:/instances:29000001:1.2.3.4',
    'rl:/recommend:29000000:1.2.3.4',
    'rl:/instances:29000000:1.2.3.04',
    'rl:/instances:29000000:16909060',
    'rl:/instances:29000000:2001:db8::1',
    // IPv6 /64 clients (packed to their four groups) and spellings that must stay apart.
    'rl:/instances:29000000:2001:db8:1:2::/64',
    'rl:/instances:29000000:2001:db8:1:3::/64',
    'rl:/instances:29000001:2001:db8:1:2::/64',
    'rl:/instances:29000000:2001:db8:01:2::/64',
    'rl:/instances:29000000:2001:DB8:1:2::/64',
    'rl:/instances:29000000:0:0:0:0::/64',
    'rl:/instances:29000000:ffff:ffff:ffff:ffff::/64',
    // A route scope with a parameter holds a colon too.
    'rl:/webhooks/:id:29000000:2001:db8:1:2::/64',
    'rl:/webhooks/:id:29000000:1.2.3.4',
    '1.2.3.4',
    ':1.2.3.4',
    'rl:/instances:29000000:255.255.255.255',
    'rl:/instances:29000000:256.1.1.1',
    // The upper half of the address space, kept as signed 32-bit numbers: each still its own.
    'rl:/instances:29000000:128.0.0.0',
    'rl:/instances:29000000:0.0.0.0',
    'rl:/instances:29000000:127.255.255.255',
    'rl:/instances:29000000:-1',
    'rl:/instances:29000000:-2147483648',
  ];
  for (const key of keys) expect(await store.increment(key, 60_000)).toBe(1);
  for (const key of keys) expect(await store.increment(key, 60_000)).toBe(2);
  expect(store.size).toBe(keys.length);
});

it('reads dotted-quad IPv4 addresses as numbers, and nothing else', () => {
  expect(ipv4Number('1.2.3.4')).toBe(0x01020304);
  expect(ipv4Number('255.255.255.255')).toBe(0xffffffff);
  expect(ipv4Number('0.0.0.0')).toBe(0);
  for (const text of [
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.04',
    '256.0.0.1',
    '1..2.3',
    '1.2.3.4 ',
    'a.b.c.d',
    '::1',
  ]) {
    expect(ipv4Number(text)).toBeUndefined();
  }
});

it('reads the client part of a rate-limit key by its structure, not by its last colon', () => {
  const start = (key: string) => key.slice(clientStart(key));
  expect(start('rl:/instances:29000000:1.2.3.4')).toBe('1.2.3.4');
  expect(start('rl:/instances:29000000:2001:db8:1:2::/64')).toBe('2001:db8:1:2::/64');
  expect(start('rl:/webhooks/:id:29000000:2001:db8::/64')).toBe('2001:db8::/64');
  expect(start('rl::29000000:x')).toBe('x');
  for (const key of ['rl:/instances:1.2.3.4', 'other:29000000:1.2.3.4', 'rl:/a:29000000']) {
    expect(clientStart(key)).toBe(0);
  }
});

it('packs a /64 written as clientKey writes it, and no other spelling', () => {
  expect(ipv6Prefix64('2001:db8:1:2::/64')).toBe(String.fromCharCode(0x2001, 0xdb8, 1, 2));
  expect(ipv6Prefix64('key:0:0:0:0::/64', 4)).toBe('\0\0\0\0');
  expect(ipv6Prefix64('ffff:ffff:ffff:ffff::/64')).toBe('\uffff\uffff\uffff\uffff');
  for (const text of [
    '2001:db8:1::/64',
    '2001:db8:1:2:3::/64',
    '2001:db8:01:2::/64',
    '2001:DB8:1:2::/64',
    '2001:db8:1:2::/48',
    '2001:db8:1:2::1',
    '12345:db8:1:2::/64',
    '2001:db8::2::/64',
    '2001:db8:1:g::/64',
    '::/64',
  ]) {
    expect(ipv6Prefix64(text)).toBeUndefined();
  }
});

/** Heap + typed-array bytes per live counter of one family, measured in a fresh process. */
function bytesPerCounter(family: 'ipv4' | 'ipv6', count: number): number {
  const script = fileURLToPath(new URL('../../bench/counter-memory.ts', import.meta.url));
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, family, String(count)],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('../../', import.meta.url)) },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return Number(run.stdout.trim());
}

it('an IPv6 client costs at most twice the memory of an IPv4 client', () => {
  // 20,000 counters of each family through the server's key format; gc() before and after.
  const ipv4 = bytesPerCounter('ipv4', 20_000);
  const ipv6 = bytesPerCounter('ipv6', 20_000);
  expect(ipv4).toBeGreaterThan(0);
  expect(ipv6 / ipv4).toBeLessThan(2);
}, 60_000);
