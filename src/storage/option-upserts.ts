import type { Transaction } from 'kysely';
import type { InstanceOffer, KeptOption } from '../catalog/offers.js';
import { OTHER_PURCHASE_OPTIONS, type OtherPurchaseOption } from '../catalog/purchase-options.js';
import type { CatalogDatabase } from './catalog-schema.js';

// D61 inside the apply's transaction (catalog-apply.ts): the options other than on-demand and the
// spot advice of every record the catalogue lists are replaced by what its offer carries, except
// a (region, option) pair the catalogue keeps (ProviderCatalog.keptOptions: that option's feed
// failed there), whose stored figures stay as they were. Records the catalogue does not list keep
// their rows: unavailable records are never listed, and held ones (held-records.ts) keep their
// previous state whole.

/** Ids per statement: far below either database's bound-parameter limit. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

function wholeMicros(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${what} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

export async function replaceOptions(
  trx: Transaction<CatalogDatabase>,
  providerId: number,
  offers: readonly InstanceOffer[],
  kept: readonly KeptOption[],
  observedAt: number,
): Promise<void> {
  const regionCodes = [...new Set(offers.map((o) => o.regionCode))];
  if (regionCodes.length === 0) return;
  const stored = await trx
    .selectFrom('pricing as p')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .where('r.provider_id', '=', providerId)
    .where('r.region_code', 'in', regionCodes)
    .select(['p.id as id', 'i.instance_id as instance_id', 'r.region_code as region_code'])
    .execute();
  const idOf = new Map(stored.map((row) => [`${row.region_code}\n${row.instance_id}`, row.id]));

  for (const regionCode of regionCodes) {
    const keptHere = new Set(kept.filter((k) => k.regionCode === regionCode).map((k) => k.option));
    const replaced = OTHER_PURCHASE_OPTIONS.filter((name) => !keptHere.has(name));
    const keepAdvice = keptHere.has('spot_advice');
    const regionOffers = offers
      .filter((o) => o.regionCode === regionCode)
      .map((offer) => {
        const id = idOf.get(`${regionCode}\n${offer.instanceId}`);
        if (id === undefined) throw new Error(`offer ${offer.instanceId}: record not stored`);
        return { offer, id };
      });
    for (const chunk of chunks(regionOffers, CHUNK)) {
      const ids = chunk.map((c) => c.id);
      if (replaced.length > 0) {
        await trx
          .deleteFrom('pricing_options')
          .where('pricing_id', 'in', ids)
          .where('purchase_option', 'in', replaced)
          .execute();
      }
      if (!keepAdvice) await trx.deleteFrom('spot_advice').where('pricing_id', 'in', ids).execute();
      const optionRows = chunk.flatMap(({ offer, id }) =>
        replaced.flatMap((name: OtherPurchaseOption) => {
          const price = offer.optionPrices?.[name];
          if (price === undefined) return [];
          const what = `offer ${offer.instanceId} ${name}`;
          return [
            {
              pricing_id: id,
              purchase_option: name,
              hourly_micros: wholeMicros(price.hourlyMicros, `${what} hourlyMicros`),
              monthly_micros: wholeMicros(price.monthlyMicros, `${what} monthlyMicros`),
              observed_at: price.observedAt?.getTime() ?? observedAt,
            },
          ];
        }),
      );
      if (optionRows.length > 0)
        await trx.insertInto('pricing_options').values(optionRows).execute();
      const adviceRows = keepAdvice
        ? []
        : chunk.flatMap(({ offer, id }) =>
            offer.spotAdvice === undefined
              ? []
              : [
                  {
                    pricing_id: id,
                    interruption_band: offer.spotAdvice.interruptionBand,
                    savings_pct: offer.spotAdvice.savingsPct,
                    observed_at: offer.spotAdvice.observedAt.getTime(),
                    source: offer.spotAdvice.source,
                  },
                ],
          );
      if (adviceRows.length > 0) await trx.insertInto('spot_advice').values(adviceRows).execute();
    }
  }
}
