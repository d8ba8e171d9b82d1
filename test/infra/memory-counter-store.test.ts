/**
 * Memory-only behaviour beyond the shared contract: the store must not grow without bound, so
 * expired counters are swept out while live ones stay.
 */
import { afterEach, expect, it } from 'vitest';
import { MemoryCounterStore, ipv4Number } from '../../src/infra/memory/memory-counter-store.js';
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
