import type { Transaction } from 'kysely';
import type { InstanceOffer } from '../catalog/offers.js';
import { UNKNOWN_MACHINE_FACTS } from '../catalog/machine-facts.js';
import type { CatalogDatabase } from './catalog-schema.js';

// The catalogue's multi-row upserts, inside the apply's transaction (catalog-apply.ts).

/** Rows per multi-row INSERT: 21 and 7 bound values a row stay far below SQLite's 32,766. */
const INSTANCE_CHUNK = 500;
const PRICING_CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

function wholeNumber(value: number, field: string, instanceId: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`offer ${instanceId}: ${field} must be an integer, got ${String(value)}`);
  }
  return value;
}

function finiteNumber(value: number, field: string, instanceId: string): number {
  if (!Number.isFinite(value)) {
    throw new TypeError(`offer ${instanceId}: ${field} must be a finite number`);
  }
  return value;
}

/** The D62/D63 columns of an offer's instance row (all null when nothing is recorded). */
function factColumns(o: InstanceOffer) {
  const facts = o.facts ?? UNKNOWN_MACHINE_FACTS;
  const run = facts.coremark;
  return {
    cpu_architecture: facts.cpuArchitecture,
    cpu_manufacturer: facts.cpuManufacturer,
    cpu_model: facts.cpuModel,
    cpu_allocation: facts.cpuAllocation,
    gpu_memory_gb:
      facts.gpuMemoryGb === null
        ? null
        : finiteNumber(facts.gpuMemoryGb, 'gpuMemoryGb', o.instanceId),
    storage_type: facts.storageType,
    coremark: run === null ? null : finiteNumber(run.score, 'coremark', o.instanceId),
    coremark_ran_at: run === null ? null : wholeNumber(run.ranAt, 'coremark ranAt', o.instanceId),
    coremark_source: run?.source ?? null,
  };
}

/** A pricing row the apply left available: its id and region. */
export interface StoredRecord {
  readonly id: number;
  readonly regionId: number;
}

export async function upsertInstances(
  trx: Transaction<CatalogDatabase>,
  providerId: number,
  instances: readonly InstanceOffer[],
): Promise<void> {
  for (const chunk of chunks(instances, INSTANCE_CHUNK)) {
    const rows = chunk.map((o) => ({
      ...factColumns(o),
      provider_id: providerId,
      instance_id: o.instanceId,
      instance_name: o.instanceName,
      vcpu: wholeNumber(o.vcpu, 'vcpu', o.instanceId),
      memory_mb: wholeNumber(o.memoryMb, 'memoryMb', o.instanceId),
      storage_gb: wholeNumber(o.storageGb, 'storageGb', o.instanceId),
      transfer_tb: finiteNumber(o.transferTb, 'transferTb', o.instanceId),
      network_speed_gbps: finiteNumber(o.networkSpeedGbps, 'networkSpeedGbps', o.instanceId),
      gpu_count: wholeNumber(o.gpuCount, 'gpuCount', o.instanceId),
      gpu_type: o.gpuType,
      instance_family: o.family,
    }));
    await trx
      .insertInto('instances')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['provider_id', 'instance_id']).doUpdateSet((eb) => ({
          instance_name: eb.ref('excluded.instance_name'),
          vcpu: eb.ref('excluded.vcpu'),
          memory_mb: eb.ref('excluded.memory_mb'),
          storage_gb: eb.ref('excluded.storage_gb'),
          transfer_tb: eb.ref('excluded.transfer_tb'),
          network_speed_gbps: eb.ref('excluded.network_speed_gbps'),
          gpu_count: eb.ref('excluded.gpu_count'),
          gpu_type: eb.ref('excluded.gpu_type'),
          instance_family: eb.ref('excluded.instance_family'),
          cpu_architecture: eb.ref('excluded.cpu_architecture'),
          cpu_manufacturer: eb.ref('excluded.cpu_manufacturer'),
          cpu_model: eb.ref('excluded.cpu_model'),
          cpu_allocation: eb.ref('excluded.cpu_allocation'),
          gpu_memory_gb: eb.ref('excluded.gpu_memory_gb'),
          storage_type: eb.ref('excluded.storage_type'),
          coremark: eb.ref('excluded.coremark'),
          coremark_ran_at: eb.ref('excluded.coremark_ran_at'),
          coremark_source: eb.ref('excluded.coremark_source'),
        })),
      )
      .execute();
  }
}

export async function upsertPricing(
  trx: Transaction<CatalogDatabase>,
  providerId: number,
  offers: readonly InstanceOffer[],
  updatedAt: number,
  observedAt: number,
): Promise<StoredRecord[]> {
  const stored: StoredRecord[] = [];
  const instanceRefs = new Map<string, number>();
  const instanceRows = await trx
    .selectFrom('instances')
    .select(['id', 'instance_id'])
    .where('provider_id', '=', providerId)
    .execute();
  for (const row of instanceRows) instanceRefs.set(row.instance_id, row.id);
  const regionIds = new Map<string, number>();
  const regionRows = await trx
    .selectFrom('regions')
    .select(['id', 'region_code'])
    .where('provider_id', '=', providerId)
    .execute();
  for (const row of regionRows) regionIds.set(row.region_code, row.id);

  for (const chunk of chunks(offers, PRICING_CHUNK)) {
    const rows = chunk.map((o) => {
      const instanceRef = instanceRefs.get(o.instanceId);
      const regionId = regionIds.get(o.regionCode);
      if (instanceRef === undefined) throw new Error(`offer ${o.instanceId}: instance not stored`);
      if (regionId === undefined) {
        throw new Error(
          `offer ${o.instanceId}: unknown region code ${JSON.stringify(o.regionCode)}`,
        );
      }
      return {
        instance_ref: instanceRef,
        region_id: regionId,
        hourly_micros: wholeNumber(o.hourlyMicros, 'hourlyMicros', o.instanceId),
        monthly_micros: wholeNumber(o.monthlyMicros, 'monthlyMicros', o.instanceId),
        available: 1,
        updated_at: updatedAt,
        observed_at: observedAt,
      };
    });
    await trx
      .insertInto('pricing')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['instance_ref', 'region_id']).doUpdateSet((eb) => ({
          hourly_micros: eb.ref('excluded.hourly_micros'),
          monthly_micros: eb.ref('excluded.monthly_micros'),
          available: eb.ref('excluded.available'),
          updated_at: eb.ref('excluded.updated_at'),
          observed_at: eb.ref('excluded.observed_at'),
        })),
      )
      .returning(['id', 'region_id'])
      .execute()
      .then((rows) => {
        for (const row of rows) stored.push({ id: Number(row.id), regionId: row.region_id });
      });
  }
  return stored;
}
