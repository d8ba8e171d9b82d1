// D61: a sync result's `options`, what each purchase-option feed a provider read came to per
// region of ours. A failed region's stored figures of that option were kept by the apply; its
// code is an upstream error code (D23), and the detail goes to the log only (D4).
import type { OptionFeedName, OptionFeedReport } from '../catalog/option-feeds.js';

export interface OptionFeedJson {
  /** Our regions whose figures of this option the sync applied, in region order. */
  readonly ok_regions: readonly string[];
  /** Our regions where the feed failed: their stored figures of this option were kept. */
  readonly failed_regions: readonly { readonly region: string; readonly code: string }[];
}

export type OptionFeedsJson = Readonly<Partial<Record<OptionFeedName, OptionFeedJson>>>;

export function optionFeedsJson(reports: readonly OptionFeedReport[]): OptionFeedsJson {
  return Object.fromEntries(
    reports.map((report) => [
      report.feed,
      {
        ok_regions: report.okRegions,
        failed_regions: report.failedRegions.map((f) => ({ region: f.regionCode, code: f.code })),
      },
    ]),
  );
}

/** The failed regions of every feed with their messages, for the sync's `warn` log line. */
export function failedOptionFeeds(
  reports: readonly OptionFeedReport[],
): { feed: OptionFeedName; region: string; code: string; message: string }[] {
  return reports.flatMap((report) =>
    report.failedRegions.map((f) => ({
      feed: report.feed,
      region: f.regionCode,
      code: f.code,
      message: f.message,
    })),
  );
}
