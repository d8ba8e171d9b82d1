/**
 * In-process mutual exclusion per key: `run(key, fn)` calls start in arrival order and never
 * overlap for the same key; different keys do not wait for each other.
 */
export class KeyedMutex {
  /** Per key, a promise that settles when the last queued holder has finished. */
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(key, tail);
    try {
      await previous;
      return await fn();
    } finally {
      release();
      // Forget the key once nobody queued behind us, so the map does not grow.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
