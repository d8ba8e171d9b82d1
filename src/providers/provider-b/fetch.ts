// provider_b I/O: reads every page of Vultr's `/regions` and `/plans` through the UpstreamClient
// (which owns timeouts, retries, size caps and file:// snapshots), following the opaque
// `meta.links.next` cursor until it is "". Envelopes are validated by parse.ts.
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { readVultrPage, type ProviderBDocuments, type VultrCollection } from './parse.js';

/** The upstream's largest page size (section 2.1); its default of 100 truncates `/plans`. */
export const VULTR_PAGE_SIZE = 500;
/** More pages than this is treated as invalid data rather than walked further. */
export const VULTR_MAX_PAGES = 50;

function invalid(message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', message);
}

/**
 * Every page of one collection, in order. A cursor seen before (the upstream sending us in a
 * circle) or a walk past VULTR_MAX_PAGES is UPSTREAM_INVALID_DATA: the sync fails and the
 * previous catalogue stays.
 */
export async function fetchVultrCollection(
  client: UpstreamClient,
  collection: VultrCollection,
  signal: AbortSignal,
): Promise<unknown[]> {
  const documents: unknown[] = [];
  const seen = new Set<string>();
  let cursor = '';
  for (let page = 1; page <= VULTR_MAX_PAGES; page += 1) {
    const query =
      cursor === ''
        ? `?per_page=${VULTR_PAGE_SIZE}`
        : `?per_page=${VULTR_PAGE_SIZE}&cursor=${encodeURIComponent(cursor)}`;
    const document = await client.getJson(`/${collection}${query}`, signal);
    const { next } = readVultrPage(document, collection, `provider_b /${collection} page ${page}`);
    documents.push(document);
    if (next === '') return documents;
    if (seen.has(next)) {
      throw invalid(`provider_b /${collection}: the cursor "${next.slice(0, 64)}" came back again`);
    }
    seen.add(next);
    cursor = next;
  }
  throw invalid(`provider_b /${collection}: more than ${VULTR_MAX_PAGES} pages`);
}

/** Both collections provider_b needs, regions first (the smaller one fails fastest). */
export async function fetchProviderBDocuments(
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<ProviderBDocuments> {
  const regionPages = await fetchVultrCollection(client, 'regions', signal);
  const planPages = await fetchVultrCollection(client, 'plans', signal);
  return { regionPages, planPages };
}
