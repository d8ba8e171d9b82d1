// Deterministic catalogues of any size for tests and benchmarks, written through the store.
import {
  INSTANCE_FAMILIES,
  PROVIDER_NAMES,
  regionsOf,
  type ProviderName,
} from '../../src/catalog/model.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import { UNKNOWN_MACHINE_FACTS, type MachineFacts } from '../../src/catalog/machine-facts.js';
import type { InstanceOffer, ProviderCatalog } from '../../src/catalog/offers.js';
import {
  SPOT_INTERRUPTION_BANDS,
  optionPrice,
  recordOptions,
  type OptionPrices,
  type SpotAdvice,
} from '../../src/catalog/purchase-options.js';

/** Small, fast, seedable PRNG (mulberry32): the same seed gives the same catalogue. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VCPUS = [1, 2, 4, 8, 16, 32, 64];
const MEMORY_PER_VCPU_MB = [512, 1024, 2048, 4096, 8192];

/**
 * D62/D63 facts of generated type `t` with `vcpu` vCPUs, from `t` alone (so the catalogue's
 * random sequence is the one it always was): every fourth type knows nothing, the others mix
 * architectures and allocations, and two in three carry a CoreMark score.
 */
function generatedFacts(t: number, vcpu: number): MachineFacts {
  if (t % 4 === 3) return UNKNOWN_MACHINE_FACTS;
  const arm = t % 3 === 0;
  return {
    cpuArchitecture: arm ? 'arm64' : 'x86_64',
    cpuManufacturer: arm ? 'AWS' : t % 2 === 0 ? 'Intel' : 'AMD',
    cpuModel: arm ? 'Neoverse-N1' : t % 2 === 0 ? 'Xeon 8488C' : 'EPYC 7R13',
    cpuAllocation: (['dedicated', 'shared', 'burstable'] as const)[t % 3]!,
    gpuMemoryGb: null,
    storageType: t % 5 === 0 ? 'nvme_ssd' : null,
    coremark:
      t % 3 === 2
        ? null
        : {
            score: 20_000 * vcpu + (t % 97) * 10,
            ranAt: Date.UTC(2025, 11, 10),
            source: 'generated',
          },
  };
}

/** What a generated offer carries beside its on-demand price (D61); nothing by default. */
export interface GeneratedExtras {
  /** A price under each of the five other purchase options (OFFER_OPTION_FRACTIONS). */
  readonly optionPrices?: boolean;
  /** AWS-style spot advice (a band and a savings figure near the spot price's). */
  readonly spotAdvice?: boolean;
}

/**
 * Each other option's price as a fraction of the on-demand hourly price: [low, high), drawn
 * per offer. The committed ranges do not overlap, so every offer keeps the real order
 * reserved_3y < convertible_3y < reserved_1y < convertible_1y < on-demand; spot ranges widely.
 */
const OFFER_OPTION_FRACTIONS = {
  spot: [0.3, 0.5],
  reserved_1y: [0.57, 0.63],
  reserved_3y: [0.37, 0.43],
  convertible_1y: [0.67, 0.73],
  convertible_3y: [0.47, 0.53],
} as const;

/** When the generated spot advice was "observed" (a fixed day: the catalogue is deterministic). */
const ADVICE_OBSERVED_AT = new Date(Date.UTC(2025, 11, 10));

/**
 * The extras of one offer priced `hourlyMicros` on-demand. `random` is a sequence of its own
 * (not the catalogue's), so asking for extras leaves every other figure of the catalogue as it
 * was without them.
 */
function offerExtras(
  hourlyMicros: number,
  extras: GeneratedExtras,
  random: () => number,
): { optionPrices?: OptionPrices; spotAdvice?: SpotAdvice } {
  const fraction = (name: keyof typeof OFFER_OPTION_FRACTIONS): number => {
    const [low, high] = OFFER_OPTION_FRACTIONS[name];
    return low + random() * (high - low);
  };
  const spot = fraction('spot');
  const out: { optionPrices?: OptionPrices; spotAdvice?: SpotAdvice } = {};
  if (extras.optionPrices === true) {
    const priced = (f: number) => optionPrice(Math.max(1, Math.round(hourlyMicros * f)));
    out.optionPrices = {
      spot: priced(spot),
      reserved_1y: priced(fraction('reserved_1y')),
      reserved_3y: priced(fraction('reserved_3y')),
      convertible_1y: priced(fraction('convertible_1y')),
      convertible_3y: priced(fraction('convertible_3y')),
    };
  }
  if (extras.spotAdvice === true) {
    out.spotAdvice = {
      interruptionBand:
        SPOT_INTERRUPTION_BANDS[Math.floor(random() * SPOT_INTERRUPTION_BANDS.length)]!,
      savingsPct: Math.round((1 - spot) * 100),
      observedAt: ADVICE_OBSERVED_AT,
      source: 'generated',
    };
  }
  return out;
}

/**
 * About `totalRecords` offers spread over the three providers and their regions. Names repeat
 * on purpose (ties in every sort), prices are whole micro-dollars. `extras` adds other purchase
 * options and spot advice to every offer; without it the offers are on-demand only.
 */
export function generateCatalogs(
  totalRecords: number,
  seed = 1,
  extras: GeneratedExtras = {},
): ProviderCatalog[] {
  const random = prng(seed);
  const withExtras = extras.optionPrices === true || extras.spotAdvice === true;
  const extrasRandom = prng(seed ^ 0x5bd1e995);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const perProvider = Math.ceil(totalRecords / PROVIDER_NAMES.length);
  return PROVIDER_NAMES.map((provider): ProviderCatalog => {
    const regions = regionsOf(provider).map((r) => r.regionCode);
    const typesNeeded = Math.ceil(perProvider / regions.length);
    const offers: InstanceOffer[] = [];
    for (let t = 0; t < typesNeeded; t++) {
      const vcpu = pick(VCPUS);
      const memoryMb = vcpu * pick(MEMORY_PER_VCPU_MB);
      const gpuCount = random() < 0.08 ? pick([1, 2, 4]) : 0;
      const family = gpuCount > 0 ? 'gpu' : pick(INSTANCE_FAMILIES.filter((f) => f !== 'gpu'));
      const baseHourly = Math.round(
        (vcpu * 9_000 + memoryMb * 2 + gpuCount * 500_000) * (0.5 + random()),
      );
      for (const regionCode of regions) {
        if (offers.length >= perProvider) break;
        const hourlyMicros = Math.round(baseHourly * (1 + random() * 0.3));
        offers.push({
          instanceId: `${provider.slice(-1)}-${family}-${t}`,
          instanceName: `${family[0]!.toUpperCase()}${family.slice(1)} ${vcpu}x${memoryMb / 1024}GB #${t % 50}`,
          vcpu,
          memoryMb,
          storageGb: pick([0, 25, 50, 80, 160, 320, 640]),
          transferTb: pick([0, 1, 2, 4, 5]),
          networkSpeedGbps: pick([1, 2, 5, 10, 25]),
          gpuCount,
          gpuType: gpuCount > 0 ? pick(['NVIDIA T4', 'NVIDIA A10G', 'NVIDIA A100']) : null,
          family,
          regionCode,
          hourlyMicros,
          monthlyMicros: hourlyMicros * 730,
          facts: generatedFacts(t, vcpu),
          ...(withExtras && offerExtras(hourlyMicros, extras, extrasRandom)),
        });
      }
    }
    return { provider, regionCodes: regions, offers, skippedRecords: 0 };
  });
}

/** Writes catalogues through the store, as a sync would. */
export async function loadCatalogs(
  store: CatalogStore,
  catalogs: readonly ProviderCatalog[],
  at = new Date(),
): Promise<void> {
  for (const catalog of catalogs) {
    await store.applyProviderCatalog(catalog, {
      syncId: `sync_${at.getTime()}_testdata${catalog.provider.slice(-1)}`,
      provider: catalog.provider,
      startedAt: at,
      completedAt: at,
    });
  }
}

export type { ProviderName };

/**
 * A generated catalogue as the rows a store snapshot gives (CatalogStore.readCatalog), without a
 * store: for benchmarks that build a CatalogIndex directly. Ids count from 1 in offer order.
 */
export function generateInstanceRows(
  totalRecords: number,
  seed: number,
  observedAt: number,
  extras: GeneratedExtras = {},
): InstanceRow[] {
  let id = 0;
  return generateCatalogs(totalRecords, seed, extras).flatMap((catalog, providerIndex) => {
    const regions = new Map(
      regionsOf(catalog.provider).map((r, i) => [r.regionCode, { ...r, id: i }]),
    );
    return catalog.offers.map((offer): InstanceRow => {
      const region = regions.get(offer.regionCode)!;
      id += 1;
      return {
        id,
        instanceId: offer.instanceId,
        instanceName: offer.instanceName,
        vcpu: offer.vcpu,
        memoryMb: offer.memoryMb,
        storageGb: offer.storageGb,
        transferTb: offer.transferTb,
        networkSpeedGbps: offer.networkSpeedGbps,
        gpuCount: offer.gpuCount,
        gpuType: offer.gpuType,
        family: offer.family,
        providerId: providerIndex + 1,
        providerName: catalog.provider,
        providerDisplayName: `Provider ${catalog.provider.slice(-1).toUpperCase()}`,
        regionId: providerIndex * 10 + region.id,
        regionCode: region.regionCode,
        regionName: region.regionName,
        countryCode: region.countryCode,
        hourlyMicros: offer.hourlyMicros,
        monthlyMicros: offer.monthlyMicros,
        available: 1,
        observedAt,
        purchaseOption: 'on_demand',
        options: recordOptions(offer, observedAt),
        spotAdvice: offer.spotAdvice ?? null,
        facts: offer.facts ?? UNKNOWN_MACHINE_FACTS,
      };
    });
  });
}
