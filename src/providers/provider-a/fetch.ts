// provider_a I/O: reads every page of Linode's `/regions` and `/linode/types` through the
// UpstreamClient (which owns timeouts, retries, size caps and file:// snapshots). Envelopes are
// validated by parse.ts; this file only follows `page`/`pages` and guards the walk.
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { readLinodePage, type ProviderADocuments } from './parse.js';

/** The upstream's largest page size (section 1.1), so a catalogue is normally one page. */
export const LINODE_PAGE_SIZE = 500;
/** A collection claiming more pages than this is treated as invalid data, not walked. */
export const LINODE_MAX_PAGES = 50;

function invalid(message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', message);
}

/**
 * Every page of one collection, in order. Page 1 fixes `pages` and `results`; every later page
 * must report the page we asked for (past the end the upstream answers with its last page) and
 * the same `pages`/`results` (the collection changed while we read it), and the records must add
 * up to `results` (a short read). Any breach is UPSTREAM_INVALID_DATA: the sync fails and the
 * previous catalogue stays.
 */
export async function fetchLinodeCollection(
  client: UpstreamClient,
  path: string,
  signal: AbortSignal,
): Promise<unknown[]> {
  const documents: unknown[] = [];
  let pages = 1;
  let results = 0;
  let records = 0;
  for (let page = 1; page <= pages; page += 1) {
    const document = await client.getJson(
      `${path}?page=${page}&page_size=${LINODE_PAGE_SIZE}`,
      signal,
    );
    const what = `provider_a ${path} page ${page}`;
    const envelope = readLinodePage(document, what);
    if (envelope.page !== page)
      throw invalid(`${what}: the upstream answered page ${envelope.page}`);
    if (page === 1) {
      if (envelope.pages > LINODE_MAX_PAGES) {
        throw invalid(`${what}: ${envelope.pages} pages exceeds the limit of ${LINODE_MAX_PAGES}`);
      }
      pages = Math.max(1, envelope.pages);
      results = envelope.results;
    } else if (envelope.pages !== pages || envelope.results !== results) {
      throw invalid(`${what}: the collection changed while it was being read`);
    }
    records += envelope.data.length;
    documents.push(document);
  }
  if (records !== results) {
    throw invalid(`provider_a ${path}: read ${records} records, the upstream reported ${results}`);
  }
  return documents;
}

/** Both collections provider_a needs, regions first (the smaller one fails fastest). */
export async function fetchProviderADocuments(
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<ProviderADocuments> {
  const regionPages = await fetchLinodeCollection(client, '/regions', signal);
  const typePages = await fetchLinodeCollection(client, '/linode/types', signal);
  return { regionPages, typePages };
}
