// provider_d I/O: the snapshot layout's two documents through the UpstreamClient (file:// for
// the bundled snapshot, http(s) for a mirror of it; the client owns timeouts, retries and caps).
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import type { ProviderDDocuments } from './parse.js';

export const MACHINE_TYPES_PATH = '/machine-types.json';
export const PRICES_PATH = '/prices.json';

export async function fetchProviderDDocuments(
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<ProviderDDocuments> {
  const machineTypes = await client.getJson(MACHINE_TYPES_PATH, signal);
  const prices = await client.getJson(PRICES_PATH, signal);
  return { machineTypes, prices };
}
