import type { ProviderCatalog } from '../catalog/offers.js';
import { UpstreamError } from './upstream/upstream-error.js';

/**
 * The largest share of the upstream entries a sync read that may fail validation before the
 * provider's sync fails with UPSTREAM_INVALID_DATA (issue 35 item 2): 10 %. A few broken
 * entries are an upstream's slip and are skipped (their stored records keep their previous
 * state); more is a format change (a price in another currency, a renamed or retyped field),
 * and applying the rest would rewrite the catalogue from a file we cannot read. Documented in
 * docs/operations.md; `force` does not override it (force only allows emptying a region).
 */
export const MAX_SKIPPED_SHARE = 0.1;

/**
 * Throws UPSTREAM_INVALID_DATA, before anything is applied, when the skipped entries exceed
 * MAX_SKIPPED_SHARE of those seen, over the provider or in any one of its regions that the
 * adapter reads apart. The previous catalogue then stays as it was (D22).
 */
export function checkSkippedShare(catalog: ProviderCatalog): void {
  const skipped = catalog.skippedRecords;
  if (skipped === 0) return;
  const seen = catalog.entriesSeen ?? skipped + catalog.offers.length;
  // Regions first: the message then names the region whose file broke.
  const parts = [
    ...(catalog.regionEntries ?? []).map((region) => ({
      where: ` in region ${region.regionCode}`,
      skipped: region.skipped,
      seen: region.seen,
    })),
    { where: '', skipped, seen },
  ];
  const over = parts.find((part) => part.skipped > part.seen * MAX_SKIPPED_SHARE);
  if (over === undefined) return;
  const percent = Math.round(MAX_SKIPPED_SHARE * 100);
  const text = `${over.skipped} of ${over.seen} upstream entries${over.where} failed validation (more than ${percent}%); the previous catalogue is unchanged`;
  throw new UpstreamError('UPSTREAM_INVALID_DATA', `${catalog.provider}: ${text}`, {
    publicMessage: `The upstream's data changed shape: ${text}`,
  });
}
