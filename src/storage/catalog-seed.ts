import type { Kysely, Transaction } from 'kysely';
import { ASIAN_REGIONS, PROVIDER_NAMES } from '../catalog/model.js';
import type { ProviderName, RegionDefinition } from '../catalog/model.js';
import type { CatalogDatabase } from './catalog-schema.js';

/**
 * Upserts the regions of one provider from the specification's table (D34), so names and
 * country codes follow the table on every start, whatever an older version stored.
 */
export async function upsertRegions(
  db: Kysely<CatalogDatabase> | Transaction<CatalogDatabase>,
  providerId: number,
  regions: readonly RegionDefinition[],
): Promise<void> {
  if (regions.length === 0) return;
  await db
    .insertInto('regions')
    .values(
      regions.map((region) => ({
        provider_id: providerId,
        region_code: region.regionCode,
        region_name: region.regionName,
        country_code: region.countryCode,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['provider_id', 'region_code']).doUpdateSet((eb) => ({
        region_name: eb.ref('excluded.region_name'),
        country_code: eb.ref('excluded.country_code'),
      })),
    )
    .execute();
}

/**
 * Seeds every registered provider (with the configured display names, D1) and its regions. Upserts only, so every start refreshes display names and replicas may race safely.
 */
export async function seedCatalog(
  db: Kysely<CatalogDatabase>,
  displayNames: Readonly<Record<ProviderName, string>>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('providers')
      .values(PROVIDER_NAMES.map((name) => ({ name, display_name: displayNames[name] ?? name })))
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({ display_name: eb.ref('excluded.display_name') })),
      )
      .execute();
    const providers = await trx.selectFrom('providers').select(['id', 'name']).execute();
    for (const provider of providers) {
      const regions = ASIAN_REGIONS.filter((region) => region.provider === provider.name);
      await upsertRegions(trx, provider.id, regions);
    }
  });
}
