// Generates provider_b's bundled snapshot (data/snapshots/provider_b/) from the recorded Vultr
// figures in data/sources/: plans, specs and prices from the 2025-12-18 `/v2/plans` list, and
// which plans are sold in Tokyo (nrt) and Seoul (icn) from the 2021-10-05 `/v2/plans` recording
// with full location lists (the 2025 list truncates them). Osaka (itm) opened after 2021, so no
// recording says which plans it sells; OSAKA_RULE infers it, and every record it yields is
// named as inferred in metadata.json and in the provenance /health shows. A plan whose Asian
// availability is neither recorded nor inferred is not listed there. Deterministic; a row the
// generator cannot read completely stops it with its line.
//
//   npx tsx src/providers/provider-b/snapshot/generate.ts [outDir]
import { collectionText } from '../../snapshot/refresh-support.js';
import {
  RecordedDataError,
  at,
  cell,
  choiceCell,
  decimalCell,
  readRecordedCsv,
  wholeCell,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';
import {
  runWhenInvoked,
  writeSnapshotFiles,
  type SnapshotFile,
} from '../../snapshot/snapshot-output.js';

export const VULTR_PLANS_FILE = 'vultr-plans-2025-12-18.csv';
export const VULTR_LOCATIONS_FILE = 'vultr-plan-locations-2021-10-05.csv';
export const VULTR_OBSERVED_AT = '2025-12-18T00:00:00Z';
const LOCATIONS_OBSERVED = '2021-10-05';

/** Our three regions (identity map: the upstream ids are ours). */
const OURS = ['icn', 'nrt', 'itm'] as const;

export const OSAKA_RULE =
  'A plan is inferred to be sold in Osaka (itm) when the recordings show it sold in both Tokyo (nrt) and Seoul (icn): Osaka opened in 2023, after the 2021 recording, and Vultr opens a new location with its common plans; a plan missing from either of them is not assumed to be in Osaka.';

export const PROVIDER_B_DATA_SOURCE = {
  observed_at: VULTR_OBSERVED_AT,
  source:
    'Vultr API v2 /plans, prices recorded 2025-12-18; Tokyo and Seoul availability recorded 2021-10-05; Osaka (itm) availability inferred, not recorded (plans sold in both Tokyo and Seoul)',
} as const;

const ID = /^[a-z0-9][a-z0-9.-]*$/;

export interface VultrRecordedPlan {
  readonly line: number;
  readonly id: string;
  readonly type: string;
  readonly vcpuCount: number;
  readonly ramMb: number;
  readonly diskGb: number;
  readonly bandwidthGb: number;
  /** USD, exactly as recorded. */
  readonly monthlyUsd: string;
  readonly hourlyUsd: string;
  /** The location ids the 2025 list shows, and whether it cut the list short. */
  readonly shownLocations: readonly string[];
  readonly truncated: boolean;
}

/** "['ewr', 'ord', 'dfw', 'sea'..." -> shown ids and truncated; "['sao']" -> complete. */
function readLocationList(row: CsvRow): { ids: string[]; truncated: boolean } {
  const text = cell(row, 'locations_truncated').trim();
  const truncated = text.endsWith('...');
  const body = truncated ? text.slice(0, -3) : text;
  const inner = /^\[(.*?)\]?$/.exec(body)?.[1];
  if (!body.startsWith('[') || (!truncated && !body.endsWith(']')) || inner === undefined) {
    throw new RecordedDataError(`${at(row, 'locations_truncated')}: "${text}" is not a list`);
  }
  const ids = inner === '' ? [] : inner.split(',').map((part) => part.trim());
  const unquoted = ids.map((id) => /^'([a-z]{3})'$/.exec(id)?.[1]);
  if (unquoted.some((id) => id === undefined)) {
    throw new RecordedDataError(`${at(row, 'locations_truncated')}: "${text}" has a bad id`);
  }
  return { ids: unquoted as string[], truncated };
}

function readPlan(row: CsvRow): VultrRecordedPlan {
  const id = cell(row, 'id');
  if (!ID.test(id)) throw new RecordedDataError(`${at(row, 'id')}: "${id}" is not a plan id`);
  const { ids, truncated } = readLocationList(row);
  return {
    line: row.line,
    id,
    type: choiceCell(row, 'type', ['vc2', 'vhf', 'vhp', 'voc', 'vdc', 'vcg']),
    vcpuCount: wholeCell(row, 'vcpu_count', 1),
    ramMb: wholeCell(row, 'ram_mb', 1),
    diskGb: wholeCell(row, 'disk_gb'),
    bandwidthGb: wholeCell(row, 'bandwidth_gb'),
    monthlyUsd: decimalCell(row, 'monthly_cost_usd'),
    hourlyUsd: decimalCell(row, 'hourly_cost_usd'),
    shownLocations: ids,
    truncated,
  };
}

interface LocatedPlan {
  readonly line: number;
  readonly vcpuCount: number;
  readonly ramMb: number;
  readonly diskGb: number;
  readonly diskCount: number;
  readonly bandwidthGb: number;
  readonly locations: ReadonlySet<string>;
}

function readLocated(row: CsvRow): [string, LocatedPlan] {
  const locations = new Set(cell(row, 'locations', false).split(' ').filter(Boolean));
  for (const region of ['nrt', 'icn', 'sgp']) {
    const flag = choiceCell(row, `in_${region}`, ['True', 'False']) === 'True';
    if (flag !== locations.has(region)) {
      throw new RecordedDataError(
        `${at(row, `in_${region}`)}: ${flag ? 'True' : 'False'} disagrees with the locations column`,
      );
    }
  }
  return [
    cell(row, 'id'),
    {
      line: row.line,
      vcpuCount: wholeCell(row, 'vcpu_count', 1),
      ramMb: wholeCell(row, 'ram_mb', 1),
      diskGb: wholeCell(row, 'disk_gb'),
      diskCount: wholeCell(row, 'disk_count', 1),
      bandwidthGb: wholeCell(row, 'bandwidth_gb'),
      locations,
    },
  ];
}

export type Availability = 'recorded-2025' | 'recorded-2021' | 'inferred';

export interface VultrSnapshotPlan {
  readonly plan: VultrRecordedPlan;
  readonly diskCount?: number;
  /** Our regions where it is listed, and on what grounds. */
  readonly regions: ReadonlyMap<(typeof OURS)[number], Availability>;
}

/** Reads both recordings and decides each plan's Asian availability. */
export async function readVultrRecordings(
  plansFile = VULTR_PLANS_FILE,
  locationsFile = VULTR_LOCATIONS_FILE,
): Promise<VultrSnapshotPlan[]> {
  const plans = (
    await readRecordedCsv(plansFile, [
      'id',
      'type',
      'vcpu_count',
      'ram_mb',
      'disk_gb',
      'bandwidth_gb',
      'monthly_cost_usd',
      'hourly_cost_usd',
      'locations_truncated',
    ])
  ).map(readPlan);
  const located = new Map(
    (
      await readRecordedCsv(locationsFile, [
        'id',
        'vcpu_count',
        'ram_mb',
        'disk_gb',
        'disk_count',
        'bandwidth_gb',
        'in_nrt',
        'in_icn',
        'in_sgp',
        'locations',
      ])
    ).map(readLocated),
  );
  const seen = new Set<string>();
  return plans.map((plan) => {
    if (seen.has(plan.id)) {
      throw new RecordedDataError(`${plansFile} line ${plan.line}: plan ${plan.id} again`);
    }
    seen.add(plan.id);
    const old = located.get(plan.id);
    if (
      old !== undefined &&
      (old.vcpuCount !== plan.vcpuCount ||
        old.ramMb !== plan.ramMb ||
        old.diskGb !== plan.diskGb ||
        old.bandwidthGb !== plan.bandwidthGb)
    ) {
      throw new RecordedDataError(
        `${locationsFile} line ${old.line}: ${plan.id} has other specs than in ${plansFile} line ${plan.line}; its 2021 locations cannot be carried over`,
      );
    }
    const regions = new Map<(typeof OURS)[number], Availability>();
    for (const region of OURS) {
      if (plan.shownLocations.includes(region)) regions.set(region, 'recorded-2025');
      else if (plan.truncated && old?.locations.has(region)) regions.set(region, 'recorded-2021');
    }
    if (!plan.truncated) {
      // A complete 2025 list is the newest word: nothing is carried over or inferred.
      return { plan, ...(old ? { diskCount: old.diskCount } : {}), regions };
    }
    if (!regions.has('itm') && regions.has('nrt') && regions.has('icn')) {
      regions.set('itm', 'inferred');
    }
    return { plan, ...(old ? { diskCount: old.diskCount } : {}), regions };
  });
}

/** A plan whose recorded price is zero (the free tier) is not a list price: left out. */
function listable(entry: VultrSnapshotPlan): boolean {
  return !/^0(\.0+)?$/.test(entry.plan.monthlyUsd);
}

function planDocument(entry: VultrSnapshotPlan): Record<string, unknown> {
  const { plan } = entry;
  // Locations: what the 2025 list shows, then our regions as decided above.
  const locations = [...plan.shownLocations];
  for (const region of entry.regions.keys())
    if (!locations.includes(region)) locations.push(region);
  return {
    id: plan.id,
    vcpu_count: plan.vcpuCount,
    ram: plan.ramMb,
    disk: plan.diskGb,
    ...(entry.diskCount !== undefined ? { disk_count: entry.diskCount } : {}),
    bandwidth: plan.bandwidthGb,
    monthly_cost: Number(plan.monthlyUsd),
    hourly_cost: Number(plan.hourlyUsd),
    type: plan.type,
    locations,
  };
}

function regionsDocument(plans: readonly VultrSnapshotPlan[]): string {
  const asian: Record<string, { city: string; country: string; continent: string }> = {
    icn: { city: 'Seoul', country: 'KR', continent: 'Asia' },
    nrt: { city: 'Tokyo', country: 'JP', continent: 'Asia' },
    itm: { city: 'Osaka', country: 'JP', continent: 'Asia' },
    sgp: { city: 'Singapore', country: 'SG', continent: 'Asia' },
  };
  const ids = new Set<string>(Object.keys(asian));
  for (const entry of plans) for (const id of entry.plan.shownLocations) ids.add(id);
  const records = [...ids].sort().map((id) => ({ id, ...(asian[id] ?? {}) }));
  return collectionText('regions', records, {
    meta: { total: records.length, links: { next: '', prev: '' } },
  });
}

function metadataText(plans: readonly VultrSnapshotPlan[]): string {
  const byRegion = (availability: Availability): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const region of OURS) {
      const ids = plans
        .filter((p) => listable(p) && p.regions.get(region) === availability)
        .map((p) => p.plan.id);
      if (ids.length > 0) out[region] = ids;
    }
    return out;
  };
  const unplaced = plans
    .filter((p) => listable(p) && p.plan.truncated && p.regions.size === 0)
    .map((p) => p.plan.id);
  const metadata = {
    provider: 'provider_b',
    data_source: PROVIDER_B_DATA_SOURCE,
    upstream: 'Vultr API v2: GET /plans and GET /regions (https://api.vultr.com/v2)',
    recorded_in: [
      `plans and prices: a plan list generated from the Vultr API on 2025-12-18 (gmartindelc/mail-server-poc terraform/PLAN_IDS.md @ d095a9fc); kept as data/sources/${VULTR_PLANS_FILE}`,
      `plan locations: a recorded /v2/plans response of ${LOCATIONS_OBSERVED} (apache/libcloud test fixture vultr_v2/list_sizes.json @ c69a7abdd, Apache-2.0); kept as data/sources/${VULTR_LOCATIONS_FILE}`,
    ],
    observed_at: VULTR_OBSERVED_AT,
    locations_observed_at: `${LOCATIONS_OBSERVED}T00:00:00Z`,
    licence: {
      name: 'figures only (plan list); Apache-2.0 (location fixture)',
      attribution:
        'Plan locations from Apache Libcloud test fixtures (Apache-2.0, The Apache Software Foundation)',
    },
    generated_by: 'src/providers/provider-b/snapshot/generate.ts (npm run snapshots:generate)',
    prices:
      'monthly_cost and hourly_cost are the recorded figures, unchanged; no location_cost is given because none applies to our regions (only the -sc1 São Paulo plans carry a surcharge).',
    availability: {
      recorded_2025: byRegion('recorded-2025'),
      recorded_2021: byRegion('recorded-2021'),
      inferred: byRegion('inferred'),
      osaka_rule: OSAKA_RULE,
      not_placed:
        'Plans whose 2025 location list is truncated and which the 2021 recording lacks are in plans.json but listed in none of our regions, since no recording says where they are sold.',
      plans_not_placed: unplaced,
    },
    left_out: [
      'vc2-1c-0.5gb-free: recorded at $0 (the free tier, sea/fra/mia only), not a list price',
    ],
    not_recorded: [
      'disk_count: from the 2021 recording for the plans it has, absent otherwise (one disk)',
      'regions.json: the region ids the recordings name, with city and country for the four Asian ones; no /regions response was recorded',
      'cpu_vendor, disk_type, storage_type and the other newer plan fields: not recorded, so not written',
    ],
    statement: `Real Vultr list prices recorded on 2025-12-18. Tokyo and Seoul availability is as recorded in 2021; Osaka availability is inferred by the rule above, not recorded. A live sync (PROVIDER_B_URL=https://api.vultr.com/v2) replaces all of it.`,
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

/** Writes plans.json, regions.json and metadata.json under `outDir`; returns their names. */
export async function generateProviderBSnapshot(outDir: string): Promise<string[]> {
  const plans = await readVultrRecordings();
  const files: SnapshotFile[] = [
    ['regions.json', regionsDocument(plans)],
    [
      'plans.json',
      collectionText('plans', plans.filter(listable).map(planDocument), {
        meta: { total: plans.filter(listable).length, links: { next: '', prev: '' } },
      }),
    ],
    ['metadata.json', metadataText(plans)],
  ];
  return writeSnapshotFiles(outDir, files);
}

runWhenInvoked(import.meta.url, 'provider_b', generateProviderBSnapshot);
