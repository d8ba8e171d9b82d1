import type { ProviderName } from '../catalog/model.js';
import type { CatalogChange } from '../storage/catalog-store.js';
import { UpstreamError } from './upstream/upstream-error.js';

/**
 * Refuses, before it commits, a catalogue that would leave the provider with no available
 * records (an empty but valid upstream: none of our regions listed, every type skipped), and,
 * unless forced, one that would leave a region of ours that had available records with none
 * (the upstream stopped listing it, or lists nothing in it): both are far likelier an upstream
 * fault than a real change, and refusing keeps the previous catalogue (D22). Emptying a region
 * is the one thing `force` allows (issue 22); a provider left with nothing is never applied.
 */
export function checkCatalogChange(
  provider: ProviderName,
  change: CatalogChange,
  force: boolean,
): void {
  if (change.remaining === 0) {
    throw new UpstreamError(
      'UPSTREAM_INVALID_DATA',
      `${provider}: the upstream lists no usable instance offer for our regions (${change.previous} available before)`,
      {
        publicMessage:
          'The upstream lists no usable instance offer for our regions; the previous catalogue is unchanged',
      },
    );
  }
  if (!force && change.emptiedRegions.length > 0) {
    const regions = change.emptiedRegions.join(', ');
    const text = `The sync would leave region ${regions} with no available records; the previous catalogue is unchanged. Send "force": true to apply it`;
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `${provider}: ${text}`, {
      publicMessage: text,
    });
  }
}
