// ECB rates I/O: one GET of the configured document through the shared UpstreamClient, which
// owns the timeouts, retries, redirect policy and size cap (the same client as the provider
// adapters), then the pure parse in ecb-parse.ts.
import { readAllCapped } from '../sync/upstream/byte-limit.js';
import type { UpstreamClient } from '../sync/upstream/upstream-client.js';
import { UpstreamError } from '../sync/upstream/upstream-error.js';
import { parseEcbRatesDocument } from './ecb-parse.js';
import type { RateTable } from '../catalog/rate-table.js';

/** The daily file is about 1.5 KB; 1 MiB leaves room for every ECB layout and stops a flood. */
export const ECB_MAX_BYTES = 1024 * 1024;

/** Where FX_RATES_URL points: the client's base (its directory) and the document's path. */
export interface RatesLocation {
  readonly baseUrl: string;
  readonly path: string;
}

/** Splits a document URL (`https://host/dir/file.xml`, `file:///dir/file.xml`) for the client. */
export function ratesLocation(documentUrl: string): RatesLocation {
  const url = new URL(documentUrl);
  const slash = url.pathname.lastIndexOf('/');
  const file = url.pathname.slice(slash + 1);
  if (file === '') throw new TypeError(`FX_RATES_URL must name a file, got ${documentUrl}`);
  const base = new URL(url.href);
  base.pathname = url.pathname.slice(0, slash + 1);
  base.search = '';
  base.hash = '';
  return { baseUrl: base.href, path: `/${file}${url.search}` };
}

export interface EcbRatesAdapter {
  fetchRates(signal: AbortSignal): Promise<RateTable>;
}

export function createEcbRatesAdapter(client: UpstreamClient, path: string): EcbRatesAdapter {
  return {
    async fetchRates(signal) {
      const body = await client.getStream(path, signal);
      const bytes = await readAllCapped(
        body,
        ECB_MAX_BYTES,
        () =>
          new UpstreamError(
            'UPSTREAM_TOO_LARGE',
            `ECB reference rates exceed ${ECB_MAX_BYTES} bytes`,
          ),
      );
      return parseEcbRatesDocument(bytes);
    },
  };
}
