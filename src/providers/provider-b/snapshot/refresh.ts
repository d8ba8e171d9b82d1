// Refreshes data/snapshots/provider_b from the live Vultr API v2: every page of `/regions` and
// `/plans` (following the cursor), written as single-page documents with `next: ""` (the
// file:// upstream ignores the query string), with metadata saying they are live list prices of
// that date. The whole upstream collections are kept; parsing picks our regions.
import { fetchProviderBDocuments } from '../fetch.js';
import { parseProviderBCatalog, readVultrPage, type VultrCollection } from '../parse.js';
import { resolveRegionMap } from '../../region-map.js';
import { PROVIDER_B_REGION_TABLE } from '../regions.js';
import {
  collectionText,
  refreshSnapshot,
  type RefreshOptions,
  type RefreshResult,
} from '../../snapshot/refresh-support.js';

export const VULTR_LIVE_URL = 'https://api.vultr.com/v2';

function singlePage(pages: readonly unknown[], collection: VultrCollection): string {
  const what = `provider_b /${collection}`;
  const records = pages.flatMap((page) => readVultrPage(page, collection, what).records);
  return collectionText(collection, records, {
    meta: { total: records.length, links: { next: '', prev: '' } },
  });
}

/** Writes `<snapshotsDir>/provider_b/{regions.json, plans.json, metadata.json}`. */
export function refreshProviderB(
  snapshotsDir: string,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  return refreshSnapshot(
    {
      provider: 'provider_b',
      liveUrl: VULTR_LIVE_URL,
      fetch: fetchProviderBDocuments,
      parse: (documents) =>
        parseProviderBCatalog(documents, resolveRegionMap(PROVIDER_B_REGION_TABLE)),
      describe: (baseUrl, date) => ({
        upstream: 'Vultr API v2: GET /plans and GET /regions (all pages, merged into one)',
        recorded_in: `${baseUrl}/plans and ${baseUrl}/regions, read by npm run snapshots:refresh`,
        source: `Vultr API v2 /plans and /regions, read live on ${date}`,
        statement:
          `Every price, location and field is as the Vultr API returned it on ${date}; ` +
          'they are real list prices of that day, and a live sync replaces them.',
      }),
      documents: (documents) => [
        ['regions.json', singlePage(documents.regionPages, 'regions')],
        ['plans.json', singlePage(documents.planPages, 'plans')],
      ],
    },
    snapshotsDir,
    options,
  );
}
