import type { ProviderName } from '../catalog/model.js';
import type { ChangeKind, PriceChange, PricePeriod } from '../catalog/price-change-model.js';
import type { InstancePage, InstanceQuery } from '../catalog/record-query.js';
import type { PurchaseOption } from '../catalog/purchase-options.js';
import type { InstanceRow } from '../catalog/records.js';

/**
 * A position in the feed: the last item a page returned. The feed is in commit order: by the
 * catalogue version its run committed (sync_runs.catalog_version), then by id.
 */
export interface ChangeCursor {
  /** The item's catalogue version; absent in a cursor of the earlier form (looked up by id). */
  readonly version?: number;
  readonly id: number;
}

/** The feed's filters: the window and what the items are about. */
export interface ChangeFilter {
  /** Inclusive. */
  readonly since: Date;
  /** Exclusive. */
  readonly until?: Date;
  readonly provider?: ProviderName;
  readonly region?: string;
  /** Any of these region codes (D56 `city`); empty matches nothing. */
  readonly regions?: readonly string[];
  /** Any of these kinds; absent: every kind. */
  readonly kinds?: readonly ChangeKind[];
  /** Only the items of this sync. */
  readonly syncId?: string;
  /** D61: only the items of this purchase option; absent: every option. */
  readonly purchaseOption?: PurchaseOption;
}

/**
 * One page of the feed. `oldest` is commit order (D40); `newest` is that order reversed, and
 * `after` is then the position the page continues below.
 */
export interface ChangeQuery extends ChangeFilter {
  readonly limit: number;
  /** Absent: `oldest`. */
  readonly order?: 'oldest' | 'newest';
  readonly after?: ChangeCursor;
}

/** The items of one sync, one kind and one provider (ADR 0022). */
export interface ChangeGroup {
  readonly syncId: string;
  /** When the sync's items were recorded (the sync's completed_at). */
  readonly at: Date;
  readonly kind: ChangeKind;
  readonly provider: ProviderName;
  readonly count: number;
}

/** Counts over every item matching a filter, whatever the page (ADR 0022). */
export interface ChangeSummary {
  readonly total: number;
  readonly kinds: Readonly<Record<ChangeKind, number>>;
  /** Newest sync first, at most `groupLimit` of them. */
  readonly groups: readonly ChangeGroup[];
  /** False when there were more groups than `groupLimit`. */
  readonly groupsComplete: boolean;
}

export interface ChangePage {
  readonly changes: readonly PriceChange[];
  /** Where the next page starts, or null when this one is the last. */
  readonly next: ChangeCursor | null;
}

export interface RecordHistory {
  readonly record: InstanceRow;
  /** Newest first. */
  readonly periods: readonly PricePeriod[];
}

export interface AsOfPage extends InstancePage {
  /** Newest successful sync completed at or before the instant, or null. */
  readonly lastSync: Date | null;
}

/** Price history reads (D39 to D41). The writes happen inside the catalogue's apply. */
export interface HistoryStore {
  /**
   * The record (available or not) and the newest `limit` periods of its `option` (D61), or
   * undefined.
   */
  recordHistory(
    recordId: number,
    limit: number,
    option: PurchaseOption,
  ): Promise<RecordHistory | undefined>;
  changes(query: ChangeQuery): Promise<ChangePage>;
  /** Counts of the items matching `filter`, per kind and per sync, kind and provider. */
  changeSummary(filter: ChangeFilter, groupLimit: number): Promise<ChangeSummary>;
  /** The catalogue as it was at `at`, one page of it, from one snapshot. */
  queryAsOf(query: InstanceQuery, at: Date): Promise<AsOfPage>;
}
