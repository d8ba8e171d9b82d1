/**
 * InvalidationBus for one process: publish() calls this process's listeners, nothing else.
 */
import type { InvalidationBus } from '../invalidation-bus.js';
import { ListenerSet } from '../listener-set.js';

export class MemoryInvalidationBus implements InvalidationBus {
  readonly #listeners = new ListenerSet();

  /** Calls every listener synchronously; rejects (after all ran) if any listener threw. */
  publish(): Promise<void> {
    const failure = this.#listeners.notify();
    return failure === undefined ? Promise.resolve() : Promise.reject(failure);
  }

  subscribe(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  close(): Promise<void> {
    this.#listeners.clear();
    return Promise.resolve();
  }
}
