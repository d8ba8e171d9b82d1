/**
 * Memory-only behaviour beyond the shared contract: the store must not grow without bound, so
 * expired counters are swept out while live ones stay.
 */
import { afterEach, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../src/infra/memory/memory-counter-store.js';
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
