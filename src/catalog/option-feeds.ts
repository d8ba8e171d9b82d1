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
