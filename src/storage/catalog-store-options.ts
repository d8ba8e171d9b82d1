import { PROVIDER_NAMES, providerEntry } from '../catalog/model.js';
import type { ProviderName } from '../catalog/model.js';

/** Options every catalogue store accepts, whichever database the URL names. */
export interface CatalogStoreOptions {
  /** Display names of the providers (D1); a missing one defaults to the vendor's name (D55). */
  readonly displayNames?: Readonly<Partial<Record<ProviderName, string>>>;
  /**
   * Receives errors no caller is waiting for (an idle PostgreSQL connection dropping). They
   * are ignored when absent; either way the pool replaces the connection.
   */
  readonly onBackgroundError?: (error: Error) => void;
  /** PostgreSQL: a new connection was opened (the database answers again after such errors). */
  readonly onConnected?: () => void;
  /** PostgreSQL: most connections the query pool opens (default 10). */
  readonly maxConnections?: number;
  /** PostgreSQL: how long to wait for a connection before failing, in ms (default 5000). */
  readonly connectTimeoutMs?: number;
}

export function resolveDisplayNames(
  options: CatalogStoreOptions,
): Readonly<Record<ProviderName, string>> {
  const names: Record<ProviderName, string> = {};
  for (const provider of PROVIDER_NAMES) {
    names[provider] = options.displayNames?.[provider] ?? providerEntry(provider)!.displayName;
  }
  return Object.freeze(names);
}
