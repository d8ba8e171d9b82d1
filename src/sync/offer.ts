import type { InstanceFamily, ProviderName } from '../catalog/model.js';

/**
 * One instance type offered in one of our regions at one price: what every provider adapter's
 * parse step produces, already in our units (memory MB, storage GB, transfer TB, network Gbps)
 * and our region codes (section 4.5).
 */
export interface InstanceOffer {
  readonly instanceId: string;
  readonly instanceName: string;
  readonly vcpu: number;
  readonly memoryMb: number;
  readonly storageGb: number;
  readonly transferTb: number;
  readonly networkSpeedGbps: number;
  readonly gpuCount: number;
  readonly gpuType: string | null;
  readonly family: InstanceFamily;
  /** Our region code (section 4.5), never the upstream's id. */
  readonly regionCode: string;
  /** Integer micro-dollars (D36). */
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
}

/**
 * Where a catalogue's figures come from (D37): a bundled or refreshed snapshot, whose metadata
 * names its recording and the time the figures were observed upstream, or the live upstream,
 * observed when it was fetched.
 */
export interface DataSource {
  readonly kind: 'snapshot' | 'live';
  readonly observedAt: Date;
  /** Short text naming the upstream and the recording; never a file path of the server. */
  readonly source: string;
}

/** A provider's whole current catalogue for our regions, ready to apply in one transaction. */
export interface ProviderCatalog {
  readonly provider: ProviderName;
  /** Our region codes that the upstream reported (the ones that get synced). */
  readonly regionCodes: readonly string[];
  readonly offers: readonly InstanceOffer[];
  /** Upstream records that failed validation and were skipped. */
  readonly skippedRecords: number;
  /**
   * Provenance of every price in it (D37). The sync always sets it (see sync/provenance.ts);
   * a catalogue without one is stored as observed when its sync started.
   */
  readonly dataSource?: DataSource;
}

/** Every adapter: fetch (I/O) then parse (pure) behind one call the sync orchestrator makes. */
export interface ProviderAdapter {
  readonly name: ProviderName;
  fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog>;
}
