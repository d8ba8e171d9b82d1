// provider_d I/O through UpstreamClients (which own timeouts, retries and byte caps): either the
// snapshot layout's two documents (file:// for the bundled snapshot, http(s) for a mirror of
// it), or, when PROVIDER_D_URL names a `.yml`/`.yaml` file, Cyclenerd's pricing.yml read whole
// under the getJson cap (pricing-file.ts) beside the reference documents of the bundled snapshot.
import { documentLocation } from '../../sync/upstream/document-location.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import type { ProviderDDocuments } from './parse.js';
import { pricingFileDocuments } from './pricing-file.js';

export const MACHINE_TYPES_PATH = '/machine-types.json';
export const PRICES_PATH = '/prices.json';

/** Whether a PROVIDER_D_URL names a pricing.yml-style file rather than a snapshot directory. */
export function isPricingFileUrl(url: string): boolean {
  return /\.ya?ml$/i.test(new URL(url).pathname);
}

/** The snapshot layout's documents from a directory (or a mirror of one). */
export async function fetchProviderDDocuments(
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<ProviderDDocuments> {
  const machineTypes = await client.getJson(MACHINE_TYPES_PATH, signal);
  const prices = await client.getJson(PRICES_PATH, signal);
  return { machineTypes, prices };
}

/** Reads a pricing file: `file` is a client of its directory, `path` the file below it. */
export interface PricingFileSource {
  readonly file: UpstreamClient;
  readonly path: string;
  /** The bundled snapshot directory: machine types and where each type is offered. */
  readonly reference: UpstreamClient;
}

/** Splits a pricing-file URL into the directory a client is made for and the file's path. */
export function pricingFileLocation(url: string): { baseUrl: string; path: string } {
  return documentLocation(url, 'PROVIDER_D_URL');
}

export async function fetchPricingFileDocuments(
  source: PricingFileSource,
  signal: AbortSignal,
): Promise<ProviderDDocuments> {
  const text = await source.file.getText(source.path, signal);
  return pricingFileDocuments(text, await fetchProviderDDocuments(source.reference, signal));
}
