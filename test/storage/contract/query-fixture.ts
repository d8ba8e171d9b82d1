// A small catalogue with ties in every sort, names whose code-point order differs from a
// dictionary's, GPU and non-GPU rows, and one record that vanished (available = 0).
import type { CatalogStore } from '../../../src/storage/catalog-store.js';
import type { InstanceOffer } from '../../../src/catalog/offers.js';
import { catalog, offer, run } from '../catalog-fixtures.js';

const A: InstanceOffer[] = [
  offer({
    instanceId: 'a1',
    instanceName: 'Standard 1',
    regionCode: 'ap-northeast',
    hourlyMicros: 6_850,
    monthlyMicros: 5_000_000,
  }),
  offer({
    instanceId: 'a1',
    instanceName: 'Standard 1',
    regionCode: 'ap-south',
    hourlyMicros: 6_900,
    monthlyMicros: 5_000_000,
  }),
  offer({
    instanceId: 'a2',
    instanceName: 'Compute 2',
    regionCode: 'ap-southeast',
    vcpu: 2,
    memoryMb: 2048,
    storageGb: 50,
    family: 'compute',
    hourlyMicros: 27_400,
    monthlyMicros: 20_000_000,
  }),
  offer({
    instanceId: 'a3',
    instanceName: 'GPU 8',
    regionCode: 'ap-northeast',
    vcpu: 8,
    memoryMb: 32_768,
    storageGb: 640,
    gpuCount: 1,
    gpuType: 'NVIDIA T4',
    family: 'gpu',
    hourlyMicros: 684_932,
    monthlyMicros: 500_000_000,
  }),
];
const B: InstanceOffer[] = [
  offer({
    instanceId: 'b1',
    instanceName: 'ab',
    regionCode: 'icn',
    memoryMb: 512,
    storageGb: 10,
    hourlyMicros: 4_795,
    monthlyMicros: 3_500_000,
  }),
  offer({
    instanceId: 'b1',
    instanceName: 'ab',
    regionCode: 'nrt',
    memoryMb: 512,
    storageGb: 10,
    hourlyMicros: 6_850,
    monthlyMicros: 5_000_000,
  }),
  offer({
    instanceId: 'b2',
    instanceName: 'Beta',
    regionCode: 'itm',
    vcpu: 4,
    memoryMb: 8192,
    storageGb: 100,
    family: 'memory',
    hourlyMicros: 54_795,
    monthlyMicros: 40_000_000,
  }),
  offer({
    instanceId: 'b3',
    instanceName: 'Ábc',
    regionCode: 'nrt',
    vcpu: 2,
    memoryMb: 2048,
    storageGb: 0,
    family: 'storage',
    hourlyMicros: 16_904,
    monthlyMicros: 12_340_000,
  }),
];
const C: InstanceOffer[] = [
  offer({
    instanceId: 'c1',
    instanceName: 'a-b',
    regionCode: 'ap-northeast-1',
    vcpu: 2,
    memoryMb: 4096,
    storageGb: 0,
    hourlyMicros: 20_548,
    monthlyMicros: 15_000_000,
  }),
  offer({
    instanceId: 'c1',
    instanceName: 'a-b',
    regionCode: 'ap-east-1',
    vcpu: 2,
    memoryMb: 4096,
    storageGb: 0,
    hourlyMicros: 21_918,
    monthlyMicros: 16_000_000,
  }),
  offer({
    instanceId: 'c2',
    instanceName: 'a_b',
    regionCode: 'ap-southeast-1',
    vcpu: 16,
    memoryMb: 65_536,
    storageGb: 0,
    gpuCount: 4,
    gpuType: 'NVIDIA A100',
    family: 'gpu',
    hourlyMicros: 2_739_726,
    monthlyMicros: 2_000_000_000,
  }),
  offer({
    instanceId: 'c3',
    instanceName: 'alpha',
    regionCode: 'ap-northeast-2',
    memoryMb: 1024,
    storageGb: 0,
    family: 'compute',
    hourlyMicros: 6_000,
    monthlyMicros: 5_000_000,
  }),
];
/** Offered once, then gone: stored with available = 0. */
const VANISHED = offer({
  instanceId: 'c9',
  instanceName: 'Gone',
  regionCode: 'ap-northeast-3',
  hourlyMicros: 1,
  monthlyMicros: 1,
});

export const AVAILABLE_OFFERS = [...A, ...B, ...C];

export async function loadQueryCatalogue(store: CatalogStore): Promise<void> {
  await store.applyProviderCatalog(catalog('provider_a', A), run('provider_a'));
  await store.applyProviderCatalog(catalog('provider_b', B), run('provider_b'));
  await store.applyProviderCatalog(catalog('provider_c', [...C, VANISHED]), run('provider_c'));
  await store.applyProviderCatalog(catalog('provider_c', C), run('provider_c'));
}
