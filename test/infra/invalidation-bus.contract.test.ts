/**
 * The InvalidationBus contract, run against every backend (memory, Redis): publish reaches every
 * subscriber (the publisher's own included, exactly once), unsubscribe works, a throwing listener
 * does not starve the others, and on Redis two instances (= two replicas) hear each other.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvalidationBus } from '../../src/infra/invalidation-bus.js';
import { describeBackend, invalidationBusBackends } from '../support/infra-backends.js';
import { eventually, sleep, waitFor } from '../support/wait.js';

/** A listener that counts its calls. */
function counter(): { listener: () => void; readonly calls: number } {
  let calls = 0;
  return {
    listener: () => {
      calls += 1;
    },
    get calls() {
      return calls;
    },
  };
}

/**
 * Resolves once `to` hears a publish on `from`. Subscriptions are made in the background, so
 * cross-replica tests first wait until both directions work, then count from zero.
 */
async function waitUntilHears(from: InvalidationBus, to: InvalidationBus): Promise<void> {
  const heard = counter();
  const unsubscribe = to.subscribe(heard.listener);
  try {
    await eventually(async () => {
      await from.publish();
      await waitFor(() => heard.calls > 0, 200);
    }, 5_000);
  } finally {
    unsubscribe();
  }
}

for (const backend of await invalidationBusBackends()) {
  describeBackend('InvalidationBus contract', backend, () => {
    let bus: InvalidationBus;

    beforeAll(() => {
      bus = backend.create();
    });
    afterAll(async () => {
      await bus.close();
      await backend.cleanup();
    });

    it('calls the publisher’s own subscribers before publish resolves', async () => {
      const first = counter();
      const second = counter();
      const offFirst = bus.subscribe(first.listener);
      const offSecond = bus.subscribe(second.listener);
      await bus.publish();
      expect([first.calls, second.calls]).toEqual([1, 1]);
      offFirst();
      offSecond();
    });

    it('stops calling a listener once it unsubscribed', async () => {
      const gone = counter();
      const kept = counter();
      const offGone = bus.subscribe(gone.listener);
      const offKept = bus.subscribe(kept.listener);
      offGone();
      offGone(); // a second call is harmless
      await bus.publish();
      expect([gone.calls, kept.calls]).toEqual([0, 1]);
      offKept();
    });

    it('treats the same function subscribed twice as two subscriptions', async () => {
      const twice = counter();
      const offOne = bus.subscribe(twice.listener);
      const offTwo = bus.subscribe(twice.listener);
      await bus.publish();
      expect(twice.calls).toBe(2);
      offOne();
      await bus.publish();
      expect(twice.calls).toBe(3);
      offTwo();
    });

    it('still calls every listener when one throws, then rejects', async () => {
      const after = counter();
      const offThrowing = bus.subscribe(() => {
        throw new Error('listener failed');
      });
      const offAfter = bus.subscribe(after.listener);
      await expect(bus.publish()).rejects.toThrow('listener failed');
      expect(after.calls).toBe(1);
      offThrowing();
      offAfter();
    });

    describe('across instances', () => {
      let replicaA: InvalidationBus;
      let replicaB: InvalidationBus;
      let heardByA: ReturnType<typeof counter>;
      let heardByB: ReturnType<typeof counter>;

      beforeAll(async () => {
        replicaA = backend.create();
        replicaB = backend.create();
        if (backend.sharedAcrossInstances) {
          await waitUntilHears(replicaA, replicaB);
          await waitUntilHears(replicaB, replicaA);
        }
      });
      afterAll(async () => {
        await Promise.all([replicaA.close(), replicaB.close()]);
      });
      beforeEach(() => {
        heardByA = counter();
        heardByB = counter();
        const offA = replicaA.subscribe(heardByA.listener);
        const offB = replicaB.subscribe(heardByB.listener);
        return () => {
          offA();
          offB();
        };
      });

      it.runIf(backend.sharedAcrossInstances)(
        'delivers a publish to the other replica',
        async () => {
          await replicaA.publish();
          expect(heardByA.calls).toBe(1);
          await waitFor(() => heardByB.calls === 1, 5_000);
        },
      );

      it.runIf(backend.sharedAcrossInstances)(
        'calls the publisher’s listeners exactly once (its own message is not delivered again)',
        async () => {
          await replicaA.publish();
          // Messages reach a subscriber in publish order, so once B's later message has reached
          // A, A's own echo would have been delivered too if it were not ignored.
          await replicaB.publish();
          await waitFor(() => heardByA.calls >= 2, 5_000);
          await sleep(100);
          expect(heardByA.calls).toBe(2);
          expect(heardByB.calls).toBeGreaterThanOrEqual(1);
        },
      );

      it.runIf(backend.sharedAcrossInstances)(
        'does not call a listener the other replica removed',
        async () => {
          const gone = counter();
          const offGone = replicaB.subscribe(gone.listener);
          offGone();
          await replicaA.publish();
          await waitFor(() => heardByB.calls === 1, 5_000);
          expect(gone.calls).toBe(0);
        },
      );

      it.runIf(!backend.sharedAcrossInstances)('keeps separate instances separate', async () => {
        await replicaA.publish();
        expect([heardByA.calls, heardByB.calls]).toEqual([1, 0]);
      });
    });
  });
}
