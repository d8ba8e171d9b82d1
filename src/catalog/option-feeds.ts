// What a purchase-option feed read gives the sync (D61): per region of ours, either the figures
// it found or why it failed, so one region's failure never costs another region, the other
// feeds or the on-demand catalogue. Read by the sync result; written by provider adapters.

/** The feeds beside an offer file: spot prices, and AWS's spot advice. */
export type OptionFeedName = 'spot' | 'spot_advice';

export type RegionFeedOutcome<T> =
  | {
      readonly regionCode: string;
      readonly ok: true;
      /** Upstream instance type -> its figure, for the types the feed gives usably. */
      readonly byType: ReadonlyMap<string, T>;
      /** Entries of this region the feed gave in an unusable form (counted, not used). */
      readonly skipped: number;
    }
  | {
      readonly regionCode: string;
      readonly ok: false;
      /** An upstream error code (UPSTREAM_TIMEOUT, UPSTREAM_INVALID_DATA, ...: D23). */
      readonly code: string;
      /** For the operator's log: what failed, never shown to a client as is. */
      readonly message: string;
    };

/** One feed read: when and from what, and the outcome of every region of ours asked for. */
export interface OptionFeedResult<T> {
  readonly feed: OptionFeedName;
  /** When the figures were observed: the fetch, or the recording's date (D37). */
  readonly observedAt: Date;
  /** Short text naming the feed or recording; never a server path (D37). */
  readonly source: string;
  /** One entry per region asked for, in the order asked. */
  readonly regions: readonly RegionFeedOutcome<T>[];
}

/** The feed failed as a whole (timeout, not JSON, wrong shape): every region fails with it. */
export function everyRegionFailed<T>(
  regionCodes: readonly string[],
  code: string,
  message: string,
): RegionFeedOutcome<T>[] {
  return regionCodes.map((regionCode) => ({ regionCode, ok: false, code, message }));
}

/** A region whose feed failed: its code for the sync result, its message for the log only. */
export interface FailedFeedRegion {
  readonly regionCode: string;
  readonly code: string;
  readonly message: string;
}

/**
 * What one feed read came to, for the sync result and the apply (ProviderCatalog.optionFeeds):
 * the regions whose figures it gave, and those where it failed, whose stored figures of the
 * feed's option are kept (ProviderCatalog.keptOptions).
 */
export interface OptionFeedReport {
  readonly feed: OptionFeedName;
  readonly okRegions: readonly string[];
  readonly failedRegions: readonly FailedFeedRegion[];
}

export function optionFeedReport(result: OptionFeedResult<unknown>): OptionFeedReport {
  const okRegions: string[] = [];
  const failedRegions: FailedFeedRegion[] = [];
  for (const region of result.regions) {
    if (region.ok) okRegions.push(region.regionCode);
    else
      failedRegions.push({
        regionCode: region.regionCode,
        code: region.code,
        message: region.message,
      });
  }
  return { feed: result.feed, okRegions, failedRegions };
}

/**
 * The (region, option) pairs whose stored figures an apply keeps: every failed region of every
 * feed. A feed's name is the option it fills (`spot`) or `spot_advice`, as KeptOption names them.
 */
export function keptOptionsOf(
  reports: readonly OptionFeedReport[],
): { readonly regionCode: string; readonly option: OptionFeedName }[] {
  return reports.flatMap((report) =>
    report.failedRegions.map((failed) => ({ regionCode: failed.regionCode, option: report.feed })),
  );
}
