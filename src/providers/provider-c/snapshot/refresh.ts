// Refreshes provider_c's bundled snapshot from the live AWS Price List Bulk API: walks the same
// URL chain as a sync (offer index -> EC2 region index -> one offer file per Asian region),
// streams each 100-450 MB region file through the same worker scanner, and writes a trimmed
// snapshot in the real layout: only the products we list, their on-demand terms and their
// Reserved terms (a few MB per region instead of hundreds of MB). Needs internet access; fails loudly
// (non-zero exit, the reason on stderr) and leaves the existing snapshot untouched on any error.
//
//   npx tsx src/providers/provider-c/snapshot/refresh.ts [outDir]
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveRegionMap } from '../../region-map.js';
import { PROVIDER_C_REGION_TABLE } from '../regions.js';
import { EC2_OFFER_CODE, OFFER_INDEX_PATH, fetchRegionFileRefs } from '../fetch.js';
import { mapProviderCOffers } from '../parse.js';
import { scanRegionFile } from '../region-file-worker.js';
import { createUpstreamClient } from '../../../sync/upstream/http-upstream-client.js';
import { asJson, formatAwsJson, isJsonObject, type Json } from './aws-offer-json.js';

export const AWS_PRICE_LIST_URL = 'https://pricing.us-east-1.amazonaws.com';
const EC2_CURRENT = '/offers/v1.0/aws/AmazonEC2/current';

export interface RefreshSummary {
  readonly outDir: string;
  readonly regions: readonly { regionCode: string; offers: number; version?: string }[];
}

function pretty(value: Json): string {
  return `${formatAwsJson(value)}\n`;
}

async function writeTree(dir: string, files: readonly (readonly [string, string])[]) {
  for (const [relative, text] of files) {
    const target = path.join(dir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/** Fetches, trims and writes the snapshot; throws (and writes nothing) on any failure. */
export async function refreshProviderC(
  outDir: string,
  baseUrl = AWS_PRICE_LIST_URL,
): Promise<RefreshSummary> {
  const client = createUpstreamClient({
    baseUrl,
    connectTimeoutMs: 10_000,
    firstByteTimeoutMs: 30_000,
    totalTimeoutMs: 30 * 60_000,
    maxRetries: 2,
    maxResponseBytes: 2 * 1024 * 1024 * 1024,
    userAgent: 'cloudprice-snapshot-refresh/0.1 (+https://github.com/cloudprice)',
  });
  const signal = AbortSignal.timeout(60 * 60_000);
  try {
    const fetchedAt = new Date().toISOString();
    const refs = await fetchRegionFileRefs(
      client,
      resolveRegionMap(PROVIDER_C_REGION_TABLE),
      signal,
    );
    const offerIndex = asJson(await client.getJson(OFFER_INDEX_PATH, signal));
    const files: [string, string][] = [];
    const regions: { regionCode: string; offers: number; version?: string }[] = [];
    const regionEntries: Record<string, Json> = {};
    for (const ref of refs) {
      console.error(`provider_c refresh: streaming ${ref.path} ...`);
      const scan = await scanRegionFile(client, ref, { retainRaw: true }, signal);
      const { offers } = mapProviderCOffers(scan.products, ref.regionCode);
      if (!scan.sawProducts || !scan.sawOnDemand || offers.length === 0) {
        throw new Error(`${ref.path}: no listable offers (${scan.productCount} products)`);
      }
      const products: Record<string, Json> = {};
      const onDemand: Record<string, Json> = {};
      const reserved: Record<string, Json> = {};
      for (const product of scan.products) {
        products[product.sku] = asJson(product.raw?.product ?? null);
        if (product.raw?.onDemand !== undefined)
          onDemand[product.sku] = asJson(product.raw.onDemand);
        if (product.raw?.reserved !== undefined)
          reserved[product.sku] = asJson(product.raw.reserved);
      }
      const doc: Json = {
        formatVersion: scan.metadata.formatVersion ?? 'v1.0',
        offerCode: scan.metadata.offerCode ?? EC2_OFFER_CODE,
        version: scan.metadata.version ?? '',
        publicationDate: scan.metadata.publicationDate ?? '',
        products,
        terms: { OnDemand: onDemand, Reserved: reserved },
        attributesList: {},
      };
      // The snapshot keeps each file under current/<region>/, whatever version the index named.
      const local = `${EC2_CURRENT}/${ref.upstreamId}/index.json`;
      files.push([local.slice(1), pretty(doc)]);
      regionEntries[ref.upstreamId] = { regionCode: ref.upstreamId, currentVersionUrl: local };
      regions.push({
        regionCode: ref.regionCode,
        offers: offers.length,
        ...(scan.metadata.version !== undefined ? { version: scan.metadata.version } : {}),
      });
    }
    files.push([
      `${EC2_CURRENT.slice(1)}/region_index.json`,
      pretty({ formatVersion: 'v1.0', publicationDate: fetchedAt, regions: regionEntries }),
    ]);
    files.push([OFFER_INDEX_PATH.slice(1), pretty(trimOfferIndex(offerIndex))]);
    files.push([
      'metadata.json',
      `${JSON.stringify(
        {
          provider: 'provider_c',
          data_source: {
            observed_at: fetchedAt,
            source: `AWS Price List Bulk API (EC2 offer files), read live on ${fetchedAt.slice(0, 10)}`,
          },
          upstream: `AWS Price List Bulk API, EC2 offer files (${baseUrl}${OFFER_INDEX_PATH})`,
          recorded_in: `${baseUrl}${OFFER_INDEX_PATH} and the region files it names, read by npm run snapshots:refresh`,
          observed_at: fetchedAt,
          licence: { name: "the provider's public price list; its terms of use apply" },
          generated_by: 'src/providers/provider-c/snapshot/refresh.ts (live refresh)',
          statement:
            'Real on-demand list prices read from the live AWS Price List at observed_at, trimmed to the plain on-demand Linux products we list. AWS bills the pricing page if the two disagree; a live sync replaces these prices.',
          regions,
        },
        null,
        2,
      )}\n`,
    ]);

    // Write beside the target, then swap: a failure above leaves the old snapshot as it was.
    const staging = `${outDir}.refresh-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await writeTree(staging, files);
    await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir);
    return { outDir, regions };
  } finally {
    await client.close();
  }
}

/** The offer index with only the EC2 offer (the rest names other services' files). */
function trimOfferIndex(index: Json): Json {
  if (!isJsonObject(index)) return index;
  const offers = index['offers'];
  if (offers === undefined || !isJsonObject(offers)) return index;
  return { ...index, offers: { [EC2_OFFER_CODE]: offers[EC2_OFFER_CODE] ?? null } };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'data/snapshots/provider_c'));
  refreshProviderC(outDir).then(
    (summary) => {
      for (const r of summary.regions) {
        console.log(`provider_c ${r.regionCode}: ${r.offers} offers (version ${r.version ?? '?'})`);
      }
      console.log(`provider_c snapshot refreshed under ${summary.outDir}`);
    },
    (err: unknown) => {
      console.error('provider_c snapshot refresh FAILED; the existing snapshot is unchanged.');
      console.error(err);
      process.exitCode = 1;
    },
  );
}
