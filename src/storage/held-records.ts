import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { InstanceOffer, ProviderCatalog } from '../catalog/offers.js';
import type { CatalogDatabase } from './catalog-schema.js';

// Records held back by an apply (issue 35 item 2): an upstream entry that failed validation but
// names its instance type is not "gone upstream" (D15). Its stored records keep their previous
// state: they are not marked unavailable, their price and history stay, and no `removed` change
// is recorded for them. A held record the catalogue also lists (another, valid entry of the same
// type and region) is not held: the offer replaces it as usual.

export interface HeldRecords {
  /** Instance ids held in every region the apply covers. */
  readonly everywhere: readonly string[];
  /** Instance ids held in one region only, by our region code. */
  readonly byRegion: ReadonlyMap<string, readonly string[]>;
}

/** The catalogue's unreadable entries less those its offers list. */
export function heldRecords(
  catalog: ProviderCatalog,
  offers: readonly InstanceOffer[],
): HeldRecords {
  const listedIds = new Set(offers.map((offer) => offer.instanceId));
  const listedPairs = new Set(
    offers.map((offer) => `${offer.regionCode}\u0000${offer.instanceId}`),
  );
  const everywhere = new Set<string>();
  const byRegion = new Map<string, Set<string>>();
  for (const entry of catalog.unreadableEntries ?? []) {
    if (entry.regionCode === undefined) {
      if (!listedIds.has(entry.instanceId)) everywhere.add(entry.instanceId);
    } else if (!listedPairs.has(`${entry.regionCode}\u0000${entry.instanceId}`)) {
      const ids = byRegion.get(entry.regionCode) ?? new Set<string>();
      ids.add(entry.instanceId);
      byRegion.set(entry.regionCode, ids);
    }
  }
  return {
    everywhere: [...everywhere],
    byRegion: new Map([...byRegion].map(([region, ids]) => [region, [...ids]])),
  };
}

/**
 * A condition on `pricing` rows: false for the provider's held records, true for every other
 * row. Ids are bound parameters; a catalogue holds at most a few thousand (the skipped-share
 * rule fails a sync long before that), well under either database's parameter limit.
 */
export function notHeld(
  eb: ExpressionBuilder<CatalogDatabase, 'pricing'>,
  provider: string,
  held: HeldRecords,
): Expression<SqlBool> {
  const instancesOf = (ids: readonly string[]) =>
    eb
      .selectFrom('instances as hi')
      .innerJoin('providers as hp', 'hp.id', 'hi.provider_id')
      .select('hi.id')
      .where('hp.name', '=', provider)
      .where('hi.instance_id', 'in', ids);
  const heldConditions: Expression<SqlBool>[] = [];
  if (held.everywhere.length > 0) {
    heldConditions.push(eb('pricing.instance_ref', 'in', instancesOf(held.everywhere)));
  }
  for (const [regionCode, ids] of held.byRegion) {
    heldConditions.push(
      eb.and([
        eb(
          'pricing.region_id',
          'in',
          eb
            .selectFrom('regions as hr')
            .innerJoin('providers as hrp', 'hrp.id', 'hr.provider_id')
            .select('hr.id')
            .where('hrp.name', '=', provider)
            .where('hr.region_code', '=', regionCode),
        ),
        eb('pricing.instance_ref', 'in', instancesOf(ids)),
      ]),
    );
  }
  return heldConditions.length === 0 ? sql<SqlBool>`1 = 1` : eb.not(eb.or(heldConditions));
}
