/**
 * Tells every replica that the catalogue changed, so each drops its local /instances cache
 * (D20 across replicas). In one process it is a plain callback list; with Redis it is pub/sub.
 */
export interface InvalidationBus {
  /** Announces a change to every subscriber, this process's included. */
  publish(): Promise<void>;
  /** Registers a listener; returns a function that removes it. */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}
