import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { CatalogStore } from '../../../src/storage/catalog-store.js';
import { catalog, offer, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Holds provider_a's lock in `holder` until released; meanwhile `contender` asks for it.
 * A contender that wrongly got in would have started within the pause (no timing is asserted
 * about a correct run, which waits for the release however slow the machine is).
 */
async function contend(holder: CatalogStore, contender: CatalogStore): Promise<string[]> {
  const events: string[] = [];
  const started = deferred();
  const release = deferred();
  const first = holder.withProviderLock('provider_a', async () => {
    events.push('first:start');
    started.resolve();
    await release.promise;
    events.push('first:end');
    return 1;
  });
  await started.promise;
  const second = contender.withProviderLock('provider_a', () => {
    events.push('second:start');
    return Promise.resolve(2);
  });
  await sleep(200);
  events.push('released');
  release.resolve();
  expect(await Promise.all([first, second])).toEqual([1, 2]);
  return events;
}

export function lockContract(ctx: StoreContext): void {
  describe('withProviderLock (D24)', () => {
    it('serialises two callers for one provider', async () => {
      expect(await contend(ctx.store, ctx.store)).toEqual([
        'first:start',
        'released',
        'first:end',
        'second:start',
      ]);
    });

    it('serialises two stores (replicas) on one database', async () => {
      const replica = await ctx.openAnother();
      expect(await contend(ctx.store, replica)).toEqual([
        'first:start',
        'released',
        'first:end',
        'second:start',
      ]);
    });

    it('does not make another provider wait', async () => {
      const release = deferred();
      const started = deferred();
      const held = ctx.store.withProviderLock('provider_a', async () => {
        started.resolve();
        await release.promise;
      });
      await started.promise;
      await expect(
        ctx.store.withProviderLock('provider_b', () => Promise.resolve('b')),
      ).resolves.toBe('b');
      release.resolve();
      await held;
    });

    it('releases the lock when the function throws, passing the error on', async () => {
      await expect(
        ctx.store.withProviderLock('provider_a', () => Promise.reject(new Error('sync broke'))),
      ).rejects.toThrow('sync broke');
      await expect(
        ctx.store.withProviderLock('provider_a', () => Promise.resolve('next')),
      ).resolves.toBe('next');
    });

    it('lets the holder use the store, as a sync does', async () => {
      const counts = await ctx.store.withProviderLock('provider_a', () =>
        ctx.store.applyProviderCatalog(
          catalog('provider_a', [offer({ instanceId: 'x', regionCode: 'ap-south' })]),
          run('provider_a'),
        ),
      );
      expect(counts.pricing).toBe(1);
    });
  });
}
