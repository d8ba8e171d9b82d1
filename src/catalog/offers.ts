// What a provider's sync produces: its offers, the catalogue they form, their provenance and
// skip counts, and the adapter port that yields them. Providers import the domain and the
// upstream clients, never sync (ADR 0018), so the port the sync orchestrator calls is declared here.
import type { DatedRecording } from './dated-recordings.js';
import type { InstanceFamily, ProviderName } from './model.js';
import type { OptionPrices, OtherPurchaseOption, SpotAdvice } from './purchase-options.js';
import type { MachineFacts } from './machine-facts.js';
import type { OptionFeedReport } from './option-feeds.js';

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
  /**
   * Prices of the purchase options other than on-demand (D61) that the upstream publishes for
   * this type here; absent or empty: on-demand only. hourlyMicros/monthlyMicros stay the
   * on-demand list price whatever this holds.
   */
  readonly optionPrices?: OptionPrices;
  /** AWS's spot advice for the type in this region (D61), where the feed gives one. */
  readonly spotAdvice?: SpotAdvice;
  /** D62/D63: the type's machine facts and CoreMark; absent means nothing is recorded (all null). */
  readonly facts?: MachineFacts;
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

/**
 * Why an upstream record was skipped: `invalid_region` a region record failed its schema,
 * `invalid_type` an instance type (plan, product) record failed its schema or holds an unusable
 * figure, `duplicate` a second record with an id already read, `unclassified` a type whose
 * class or family we do not know, `unusable_price` a type without a usable price in one of our
 * regions.
 */
export const SKIP_REASONS = [
  'invalid_region',
  'invalid_type',
  'duplicate',
  'unclassified',
  'unusable_price',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export type SkipCounts = Partial<Record<SkipReason, number>>;

/** One region's share of the entries a sync read (ProviderCatalog.regionEntries). */
export interface RegionEntries {
  readonly regionCode: string;
  readonly skipped: number;
  readonly seen: number;
}

/** One (region, option) pair whose stored figures an apply keeps (ProviderCatalog.keptOptions). */
export interface KeptOption {
  readonly regionCode: string;
  readonly option: OtherPurchaseOption | 'spot_advice';
}

/** An upstream entry that failed validation but names its instance type (and region). */
export interface UnreadableEntry {
  readonly instanceId: string;
  readonly regionCode?: string;
}

/**
 * A provider's current catalogue for our regions, ready to apply in one transaction. It speaks
 * per region (see storage/catalog-apply.ts): the records of a region in `regionCodes` are replaced by
 * its offers, those of a region in `goneRegionCodes` are removed, and those of any other region
 * of ours are kept as they were, because the upstream did not say what it holds there.
 */
export interface ProviderCatalog {
  readonly provider: ProviderName;
  /** Our regions whose offers this catalogue lists completely (the ones that get synced). */
  readonly regionCodes: readonly string[];
  /**
   * Our regions the upstream says are gone: absent from its region list, while every region
   * record was read, and named by no offer. Never a region whose record failed to parse.
   */
  readonly goneRegionCodes?: readonly string[];
  readonly offers: readonly InstanceOffer[];
  /** Upstream records that failed validation and were skipped. */
  readonly skippedRecords: number;
  /** The skipped records by reason; the counts add up to `skippedRecords`. */
  readonly skippedReasons?: SkipCounts;
  /**
   * Upstream entries read that could have become records: the valid ones, the skipped ones and
   * those left out on purpose (region records included where the upstream has them). The
   * denominator of the skipped share (sync/skipped-guard.ts); absent: skipped plus offers.
   */
  readonly entriesSeen?: number;
  /**
   * Per region of ours, where the adapter reads each region's entries apart (an upstream with
   * one file per region): its skipped and seen entries, so one broken region trips the
   * skipped-share rule even when the provider's other regions dilute it.
   */
  readonly regionEntries?: readonly RegionEntries[];
  /**
   * Entries the upstream lists but that failed validation, whose instance id could still be
   * read (D15 as issue 35 reads it): their stored records keep their previous state (price,
   * availability, history) instead of being removed, because a record we could not read is not
   * gone upstream. `regionCode` absent: the type's records in every region the catalogue covers.
   */
  readonly unreadableEntries?: readonly UnreadableEntry[];
  /**
   * D61: purchase options whose feed failed in a region (the spot price feed, AWS's spot advice):
   * the apply keeps that region's stored figures of that option as they were instead of
   * replacing them with what the offers carry (nothing), so an option's failed feed never
   * removes its prices; on-demand and the other options are applied as usual. `spot_advice`
   * names the advice (`pricing.spot_advice`), which is not an option but is kept the same way.
   */
  readonly keptOptions?: readonly KeptOption[];
  /**
   * D61: what each purchase-option feed the adapter read came to, per region of ours (the sync
   * result's `options`). Absent for a provider without such feeds or with none configured.
   */
  readonly optionFeeds?: readonly OptionFeedReport[];
  /**
   * Provenance of every price in it (D37). The sync always sets it (see sync/provenance.ts);
   * a catalogue without one is stored as observed when its sync started.
   */
  readonly dataSource?: DataSource;
  /**
   * When the upstream itself says its figures were observed (a price file's build time), where
   * it says so: a live source's provenance dates the catalogue by it when it is before the
   * fetch (sync/provenance.ts).
   */
  readonly upstreamObservedAt?: Date;
  /**
   * A snapshot's earlier dated recordings (D64), read on demand: only a provider's first fill
   * asks for them. Absent when the source has none (a live upstream, most snapshots).
   */
  readonly loadRecordings?: (signal: AbortSignal) => Promise<readonly DatedRecording[]>;
  /**
   * The recordings the apply replays before this catalogue, oldest first (set by the sync for
   * a first fill; the apply replays them only while the provider has no record at all).
   */
  readonly recordings?: readonly DatedRecording[];
}

/** Every adapter: fetch (I/O) then parse (pure) behind one call the sync orchestrator makes. */
export interface ProviderAdapter {
  readonly name: ProviderName;
  fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog>;
}
