/**
 * The local half of every InvalidationBus: a set of listeners that are all called even when one
 * throws (one broken listener must not keep another cache stale).
 */
export class ListenerSet {
  readonly #listeners = new Set<() => void>();

  /** Adds `listener`; the returned function removes it (calling it twice is harmless). */
  add(listener: () => void): () => void {
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry = (): void => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Calls every listener registered at the time of the call, even when some throw. Returns
   * undefined when all succeeded, else the failure (an AggregateError when several failed).
   */
  notify(): Error | undefined {
    const errors: Error[] = [];
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        errors.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
    if (errors.length <= 1) return errors[0];
    return new AggregateError(errors, 'Invalidation listeners failed');
  }

  clear(): void {
    this.#listeners.clear();
  }
}
