import type { ProviderName } from '../catalog/model.js';
import type { ChangeKind, PriceChange, PricePeriod } from '../history/change-model.js';
import type { InstancePage, InstanceQuery } from '../catalog/record-query.js';
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

export interface ChangeQuery {
  /** Inclusive. */
  readonly since: Date;
  /** Exclusive. */
  readonly until?: Date;
  readonly provider?: ProviderName;
  readonly region?: string;
  /** Any of these region codes (D56 `city`); empty matches nothing. */
  readonly regions?: readonly string[];
  readonly kind?: ChangeKind;
  readonly limit: number;
  readonly after?: ChangeCursor;
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
  /** The record (available or not) and its newest `limit` periods, or undefined. */
  recordHistory(recordId: number, limit: number): Promise<RecordHistory | undefined>;
  changes(query: ChangeQuery): Promise<ChangePage>;
  /** The catalogue as it was at `at`, one page of it, from one snapshot. */
  queryAsOf(query: InstanceQuery, at: Date): Promise<AsOfPage>;
}
