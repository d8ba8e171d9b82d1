// What a provider's folder exports: everything the rest of the service needs to know of it.
// The registry (registry.ts) lists them; config, the catalogue's regions, the adapters, field
// notes, display names, metrics labels, the CLI, the snapshot scripts and the API's enums all
// derive from that list, so adding a provider touches its folder and one line of the registry.
import type { FieldNote } from '../catalog/field-notes.js';
import type { ProviderEntry, RegionDefinition } from '../catalog/model.js';
import type { ProviderAdapter } from '../catalog/offers.js';
import type { OptionFeedName } from '../catalog/option-feeds.js';
import type { UpstreamClient } from '../sync/upstream/upstream-client.js';

/** A region of the provider's table, with the upstream id it is read from (`upstreamId`). */
export type ProviderRegion = Omit<RegionDefinition, 'provider'>;

/** A provider's snapshot generator and refresher, loaded only by the snapshot scripts. */
export interface ProviderSnapshotTools {
  /**
   * Rebuilds the bundled snapshot `<bundled>/<name>/` and its test copy `<fixtures>/<name>/`
   * from the recorded figures in data/sources/, offline and deterministically.
   */
  generate(bundled: string, fixtures: string): Promise<void>;
  /** Rewrites `<snapshots>/<name>/` from the live upstream: all its files or none. */
  refresh(snapshots: string): Promise<unknown>;
  /**
   * D62/D63: rewrites the provider's generated machine-facts module in its folder from the
   * recordings in data/sources/ (a table keyed by instance type, which live syncs attach too),
   * for a provider whose facts are recorded apart from its prices.
   */
  generateFacts?(): Promise<void>;
}

export interface ProviderDefinition extends ProviderEntry {
  readonly regions: readonly ProviderRegion[];
  /**
   * D65: served only when the PROVIDERS setting names it (or is `all`); the default setting
   * serves every registered provider without this flag (the specification's three).
   */
  readonly optIn?: boolean;
  /** The letter of its environment variables: PROVIDER_<letter>_URL, _DISPLAY_NAME. */
  readonly envKey: string;
  /** The upstream it reads, as /health names a live source (D37). */
  readonly upstreamName: string;
  /**
   * What its field notes mean, for the API documentation: per note, the cases in which
   * fieldNotes gives it (`storage_gb 0 = EBS only`).
   */
  readonly fieldNoteCases: Readonly<Partial<Record<FieldNote, readonly string[]>>>;
  /**
   * True when a file:// upstream URL names one of its live upstream's documents (a downloaded
   * price file) rather than a snapshot directory: no metadata.json is looked for beside it.
   */
  isLiveFile?(url: string): boolean;
  /** Its adapter over `client` (a live upstream, a test server or a snapshot directory). */
  createAdapter(client: UpstreamClient, context: ProviderAdapterContext): ProviderAdapter;
  /** Its snapshot tools (scripts only: loaded on demand, never by the server). */
  loadSnapshotTools(): Promise<ProviderSnapshotTools>;
}

/** A purchase-option feed an adapter reads beside its upstream (D61), as configured. */
export interface OptionFeedSetting {
  /** The feed document's URL (https://, http:// or file://). */
  readonly url: string;
  /** The setting it came from (PROVIDER_C_SPOT_URL), for configuration error messages. */
  readonly setting: string;
  /** True for the bundled recording: its figures are dated by its own provenance (D37). */
  readonly bundled: boolean;
}

/** What an adapter may read besides its own upstream. */
export interface ProviderAdapterContext {
  /** The option feeds configured for this provider; a feed not named is not read. */
  readonly optionFeeds: Readonly<Partial<Record<OptionFeedName, OptionFeedSetting>>>;
  /**
   * A client of another base URL (a feed's directory) with the provider's upstream settings:
   * the same timeouts, retries, size caps and redirect policy as its own client.
   */
  upstreamClient(baseUrl: string): UpstreamClient;
}
