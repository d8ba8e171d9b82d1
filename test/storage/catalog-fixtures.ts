// Builders for catalogues and sync runs, and helpers that read a store back whole.
import { regionsOf, type ProviderName } from '../../src/catalog/model.js';
import type { CatalogStore, SyncRunRecord } from '../../src/storage/catalog-store.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import type { SortColumn } from '../../src/catalog/record-query.js';
import type { InstanceOffer, ProviderCatalog } from '../../src/catalog/offers.js';

type OfferKey = Pick<InstanceOffer, 'instanceId' | 'regionCode'>;

export function offer(fields: OfferKey & Partial<InstanceOffer>): InstanceOffer {
  return {
    instanceName: `Instance ${fields.instanceId}`,
    vcpu: 1,
    memoryMb: 1024,
    storageGb: 25,
    transferTb: 1,
    networkSpeedGbps: 1,
    gpuCount: 0,
    gpuType: null,
    family: 'general',
    hourlyMicros: 6_850,
    monthlyMicros: 5_000_000,
    ...fields,
  };
}

/**
 * A provider's catalogue covering `regionCodes`, by default every region of ours for the
 * provider: an upstream that lists all of them, so a region without an offer here is emptied.
 */
export function catalog(
  provider: ProviderName,
  offers: readonly InstanceOffer[],
  regionCodes: readonly string[] = regionsOf(provider).map((r) => r.regionCode),
): ProviderCatalog {
  return { provider, regionCodes, offers, skippedRecords: 0 };
}

let runNumber = 0;

/** A run that completed at `completedAt` (default: now), one second after it started. */
export function run(
  provider: ProviderName,
  completedAt = new Date(),
): Omit<SyncRunRecord, 'counts' | 'success' | 'errorCode' | 'errorMessage'> {
  runNumber += 1;
  return {
    syncId: `sync_${completedAt.getTime()}_test${String(runNumber).padStart(4, '0')}`,
    provider,
    startedAt: new Date(completedAt.getTime() - 1_000),
    completedAt,
  };
}

/** Every available record, read page by page (100 a page) in the given order. */
export async function readAll(
  store: CatalogStore,
  sort: SortColumn = 'monthly_price',
  order: 'asc' | 'desc' = 'asc',
): Promise<InstanceRow[]> {
  const rows: InstanceRow[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await store.queryInstances({ filter: {}, sort, order, limit: 100, offset });
    rows.push(...page.rows);
    if (page.rows.length < 100) return rows;
  }
}

/** What a reader can observe of the whole catalogue, for "nothing changed" comparisons. */
export async function observableState(store: CatalogStore): Promise<unknown> {
  return {
    records: await readAll(store),
    available: await store.countAvailable(),
    states: await store.providerStates(),
    lastSync: await store.lastSuccessfulSync(),
  };
}
