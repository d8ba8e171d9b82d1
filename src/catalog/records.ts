// The record: one instance type in one region at one price, as the catalogue holds it and
// every reader (index, store, API shaping, recommendations) passes it around.
import type { InstanceFamily, ProviderName } from './model.js';
import type { MachineFacts } from './machine-facts.js';

/** One priced record: an instance type in a region (the API's instance record, flat). */
export interface InstanceRow {
  /** The record id: unique per (instance type, region); ties in every sort break on it (D16). */
  readonly id: number;
  readonly instanceId: string;
  readonly instanceName: string;
  readonly vcpu: number;
  readonly memoryMb: number;
  readonly storageGb: number;
  readonly transferTb: number;
  readonly networkSpeedGbps: number;
  readonly gpuCount: number;
  readonly gpuType: string | null;
  readonly family: InstanceFamily;
  readonly providerId: number;
  readonly providerName: ProviderName;
  readonly providerDisplayName: string;
  readonly regionId: number;
  readonly regionCode: string;
  readonly regionName: string;
  readonly countryCode: string;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly available: number;
  /** Epoch milliseconds at which the price was observed upstream (D37). */
  readonly observedAt: number;
  /** D62/D63: the type's machine facts (UNKNOWN_MACHINE_FACTS when nothing is recorded). */
  readonly facts: MachineFacts;
}
