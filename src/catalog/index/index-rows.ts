// The rows a CatalogIndex keeps, collected a page at a time as a store scan hands them over
// (CatalogStore.scanCatalog), so that only the index's own copy of each record outlives its
// page: the database rows and their strings die young, page by page, instead of the whole
// catalogue existing twice while the index is built (issue 9: the 50,000-record snapshot was
// ~110 MB of heap on top of what the index keeps).
import type { CatalogScan, CatalogSnapshot } from '../catalogues.js';
import type { InstanceRow } from '../records.js';
import { machineFactsKey, UNKNOWN_MACHINE_FACTS, type MachineFacts } from '../machine-facts.js';

/**
 * Interns the strings of a row: the same provider, region or type name is stored once. Every
 * field written out (one object shape for every row, no spread): issue 9's 50,000-record build.
 */
function internRow(
  row: InstanceRow,
  intern: (text: string) => string,
  internFacts: (facts: MachineFacts) => MachineFacts,
): InstanceRow {
  return Object.freeze({
    id: row.id,
    instanceId: intern(row.instanceId),
    instanceName: intern(row.instanceName),
    vcpu: row.vcpu,
    memoryMb: row.memoryMb,
    storageGb: row.storageGb,
    transferTb: row.transferTb,
    networkSpeedGbps: row.networkSpeedGbps,
    gpuCount: row.gpuCount,
    gpuType: row.gpuType === null ? null : intern(row.gpuType),
    family: row.family,
    providerId: row.providerId,
    providerName: row.providerName,
    providerDisplayName: intern(row.providerDisplayName),
    regionId: row.regionId,
    regionCode: intern(row.regionCode),
    regionName: intern(row.regionName),
    countryCode: intern(row.countryCode),
    hourlyMicros: row.hourlyMicros,
    monthlyMicros: row.monthlyMicros,
    available: row.available,
    observedAt: row.observedAt,
    purchaseOption: row.purchaseOption,
    options: Object.freeze(row.options),
    spotAdvice:
      row.spotAdvice === null
        ? null
        : Object.freeze({ ...row.spotAdvice, source: intern(row.spotAdvice.source) }),
    facts: internFacts(row.facts),
  });
}

/** One catalogue version's records, interned, on their way into a CatalogIndex. */
export class IndexRows {
  readonly version: number;
  readonly lastSuccessfulSync: Date | null;
  readonly #strings = new Map<string, string>();
  /** One facts object per distinct facts (a type's, shared by its regions). */
  readonly #facts = new Map<string, MachineFacts>();
  readonly #rows: InstanceRow[] = [];
  #inIdOrder = true;
  #lastId = -Infinity;
  /** Milliseconds spent in add() (the index's share of a scan; the rest is the database's). */
  #addMs = 0;

  constructor(version: number, lastSuccessfulSync: Date | null) {
    this.version = version;
    this.lastSuccessfulSync = lastSuccessfulSync;
  }

  /** The rows of a snapshot already read whole (tests, benchmarks, tools). */
  static of(snapshot: CatalogSnapshot): IndexRows {
    const rows = new IndexRows(snapshot.version, snapshot.lastSuccessfulSync);
    rows.add(snapshot.rows);
    return rows;
  }

  /** Reads every page of a scan; call it inside scanCatalog, build the index after it. */
  static async read(scan: CatalogScan): Promise<IndexRows> {
    const rows = new IndexRows(scan.version, scan.lastSuccessfulSync);
    for await (const page of scan.pages) rows.add(page);
    return rows;
  }

  add(page: readonly InstanceRow[]): void {
    const started = performance.now();
    const strings = this.#strings;
    const intern = (text: string): string => {
      const known = strings.get(text);
      if (known !== undefined) return known;
      strings.set(text, text);
      return text;
    };
    const known = this.#facts;
    const internFacts = (facts: MachineFacts): MachineFacts => {
      if (facts === UNKNOWN_MACHINE_FACTS) return facts;
      const key = machineFactsKey(facts);
      const held = known.get(key);
      if (held !== undefined) return held;
      const frozen = Object.freeze({ ...facts });
      known.set(key, frozen);
      return frozen;
    };
    for (const row of page) {
      if (row.id <= this.#lastId) this.#inIdOrder = false;
      this.#lastId = row.id;
      this.#rows.push(internRow(row, intern, internFacts));
    }
    this.#addMs += performance.now() - started;
  }

  /** Milliseconds add() took, all pages together. */
  get addMs(): number {
    return this.#addMs;
  }

  /**
   * The rows by id ascending, frozen (sorted here only if they did not arrive that way; scans
   * and snapshots deliver id order). Call once: the intern table is dropped with it.
   */
  take(): readonly InstanceRow[] {
    this.#strings.clear();
    this.#facts.clear();
    if (!this.#inIdOrder) this.#rows.sort((a, b) => a.id - b.id);
    return Object.freeze(this.#rows);
  }
}
