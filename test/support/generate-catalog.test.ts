// The generated catalogue's purchase options (D61), what `npm run bench:world` serves: asking
// for them adds prices and advice to every offer and changes nothing else, the prices keep
// the real order of the options, and they reach the records the index reads from the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  OTHER_PURCHASE_OPTIONS,
  PURCHASE_OPTIONS,
  isSpotInterruptionBand,
  optionPrice,
} from '../../src/catalog/purchase-options.js';
import type { InstanceOffer } from '../../src/catalog/offers.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { generateCatalogs, generateInstanceRows, loadCatalogs } from './generate-catalog.js';

const EXTRAS = { optionPrices: true, spotAdvice: true } as const;

function offers(extras = {}): InstanceOffer[] {
  return generateCatalogs(900, 42, extras).flatMap((c) => c.offers);
}

describe('generateCatalogs with purchase options', () => {
  it('gives no options or advice by default, and the same offers otherwise', () => {
    const plain = offers();
    const rich = offers(EXTRAS);
    expect(plain.some((o) => 'optionPrices' in o || 'spotAdvice' in o)).toBe(false);
    expect(rich.map(({ optionPrices: _p, spotAdvice: _s, ...rest }) => rest)).toEqual(plain);
  });

  it('prices every offer under all five other options, in their real order, from the seed', () => {
    const rich = offers(EXTRAS);
    expect(offers(EXTRAS)).toEqual(rich);
    for (const offer of rich) {
      const prices = offer.optionPrices!;
      expect(Object.keys(prices).sort()).toEqual([...OTHER_PURCHASE_OPTIONS].sort());
      for (const name of OTHER_PURCHASE_OPTIONS) {
        expect(prices[name]).toEqual(optionPrice(prices[name]!.hourlyMicros));
      }
      const fraction = (name: (typeof OTHER_PURCHASE_OPTIONS)[number]) =>
        prices[name]!.hourlyMicros / offer.hourlyMicros;
      expect(fraction('spot')).toBeGreaterThanOrEqual(0.29);
      expect(fraction('spot')).toBeLessThanOrEqual(0.51);
      expect(fraction('reserved_3y')).toBeGreaterThan(0.36);
      expect(fraction('reserved_3y')).toBeLessThan(fraction('convertible_3y'));
      expect(fraction('convertible_3y')).toBeLessThan(fraction('reserved_1y'));
      expect(fraction('reserved_1y')).toBeLessThan(fraction('convertible_1y'));
      expect(fraction('convertible_1y')).toBeLessThan(0.74);
      const advice = offer.spotAdvice!;
      expect(isSpotInterruptionBand(advice.interruptionBand)).toBe(true);
      expect(advice.savingsPct).toBe(Math.round((1 - fraction('spot')) * 100));
    }
    // The draws differ per offer (not one fraction for the whole catalogue).
    expect(new Set(rich.map((o) => o.spotAdvice!.interruptionBand)).size).toBeGreaterThan(1);
    expect(
      new Set(
        rich.map((o) => Math.round((o.optionPrices!.spot!.hourlyMicros / o.hourlyMicros) * 100)),
      ).size,
    ).toBeGreaterThan(10);
  });

  it('gives generated rows every option', () => {
    for (const row of generateInstanceRows(300, 42, Date.UTC(2026, 0, 1), EXTRAS)) {
      expect(Object.keys(row.options)).toEqual([...PURCHASE_OPTIONS]);
      expect(row.spotAdvice).not.toBeNull();
    }
  });
});

describe('a generated catalogue with options, written through the store', () => {
  let dir: string;
  let store: CatalogStore;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-generated-options-'));
    store = await createCatalogStore(`sqlite:${path.join(dir, 'catalog.db')}`, {});
    await store.migrate();
    await loadCatalogs(store, generateCatalogs(600, 42, EXTRAS));
  }, 60_000);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads back every record with its six options and its spot advice', async () => {
    const generated = new Map(
      generateCatalogs(600, 42, EXTRAS).flatMap((c) =>
        c.offers.map((o) => [`${c.provider}/${o.regionCode}/${o.instanceId}`, o] as const),
      ),
    );
    const { rows } = await store.readCatalog();
    expect(rows).toHaveLength(generated.size);
    for (const row of rows) {
      const offer = generated.get(`${row.providerName}/${row.regionCode}/${row.instanceId}`)!;
      expect(Object.keys(row.options)).toEqual([...PURCHASE_OPTIONS]);
      expect(row.options.reserved_1y?.monthlyMicros).toBe(
        offer.optionPrices!.reserved_1y!.monthlyMicros,
      );
      expect(row.spotAdvice?.savingsPct).toBe(offer.spotAdvice!.savingsPct);
    }
  });
});
