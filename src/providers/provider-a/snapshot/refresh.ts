// Refreshes data/snapshots/provider_a from the live Linode API v4: every page of `/regions` and
// `/linode/types`, written as single-page documents (the file:// upstream ignores the query
// string), with metadata saying they are live list prices of that date. The whole upstream
// collections are kept; parsing picks our regions, as it does for a live sync.
import path from 'node:path';
import { fetchProviderADocuments } from '../fetch.js';
import { parseProviderACatalog, readLinodePage } from '../parse.js';
import { resolveRegionMap } from '../../region-map.js';
import { PROVIDER_A_REGION_TABLE } from '../regions.js';
import {
  collectionText,
  refreshSnapshot,
  type RefreshOptions,
  type RefreshResult,
} from '../../snapshot/refresh-support.js';

export const LINODE_LIVE_URL = 'https://api.linode.com/v4';

function singlePage(pages: readonly unknown[], what: string): string {
  const records = pages.flatMap((page) => readLinodePage(page, what).data);
  return collectionText('data', records, { page: 1, pages: 1, results: records.length });
}

/** Writes `<snapshotsDir>/provider_a/{regions.json, linode/types.json, metadata.json}`. */
export function refreshProviderA(
  snapshotsDir: string,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  return refreshSnapshot(
    {
      provider: 'provider_a',
      liveUrl: LINODE_LIVE_URL,
      fetch: fetchProviderADocuments,
      parse: (documents) =>
        parseProviderACatalog(documents, resolveRegionMap(PROVIDER_A_REGION_TABLE)),
      describe: (baseUrl, date) => ({
        upstream:
          'Linode/Akamai API v4: GET /linode/types and GET /regions (all pages, merged into one)',
        recorded_in: `${baseUrl}/linode/types and ${baseUrl}/regions, read by npm run snapshots:refresh`,
        source: `Linode API v4 /linode/types and /regions, read live on ${date}`,
        statement:
          `Every price and field is as the Linode API returned it on ${date}; ` +
          'they are real list prices of that day, and a live sync replaces them.',
      }),
      documents: (documents) => [
        ['regions.json', singlePage(documents.regionPages, 'provider_a /regions')],
        [
          path.join('linode', 'types.json'),
          singlePage(documents.typePages, 'provider_a /linode/types'),
        ],
      ],
    },
    snapshotsDir,
    options,
  );
}
