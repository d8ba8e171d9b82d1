// The pure half of a first fill's replay of dated recordings (D64, recordings-replay.ts): the
// states of every record and purchase option as the recordings and then the catalogue move them,
// and the change events that produces, in time order. No I/O: recordings-replay.ts reads the
// catalogue's rows, feeds them in and writes the events as periods and feed items.
//
// On-demand is the record's list price: listed opens it, delisted makes the record unavailable
// at its last price. Another option (D61) is offered while its record is available and the
// option's own log lists it; it changes when either moves, so a delisted record's options are
// removed with it and come back with it. Only the options some recording carries are tracked
// (`replayedOptions`): the others are left to the history apply that follows, as before options
// could be recorded (D38: opened at the fill's time).
import {
  recordKey,
  type DatedRecording,
  type RecordedDelisting,
  type RecordedListing,
} from '../catalog/dated-recordings.js';
import { classifyChange, type PriceState } from '../catalog/price-change-model.js';
import type { OtherPurchaseOption, PurchaseOption } from '../catalog/purchase-options.js';

export interface ReplayState extends PriceState {
  /** When the figure was last seen listed (epoch ms): the period's observed_at. */
  readonly listedAt: number;
}

export interface ReplayEvent {
  /** recordKey of the record. */
  readonly key: string;
  readonly option: PurchaseOption;
  readonly at: number;
  readonly syncId: string;
  readonly kind: NonNullable<ReturnType<typeof classifyChange>>;
  readonly before: ReplayState | undefined;
  readonly after: ReplayState;
}

/** An option's last recorded price and whether its log still lists it. */
interface OptionListing {
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly listedAt: number;
  readonly listed: boolean;
}

/** One record or option figure of the catalogue (the newest recording), by recordKey. */
export interface CurrentFigure {
  readonly key: string;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly observedAt: number;
}

/** A record's figure under one option: recordKey and the option. */
export const figureKey = (key: string, option: PurchaseOption) => `${key}\n${option}`;

/** The options any of `recordings` carries: the ones the replay dates. */
export function recordedOptions(
  recordings: readonly DatedRecording[],
): ReadonlySet<OtherPurchaseOption> {
  const out = new Set<OtherPurchaseOption>();
  for (const recording of recordings) {
    for (const name of Object.keys(recording.options ?? {}) as OtherPurchaseOption[]) {
      out.add(name);
    }
  }
  return out;
}

export class ReplayLedger {
  /** Every change, in the order it happened. */
  readonly events: ReplayEvent[] = [];
  /** Each record's on-demand state, by recordKey. */
  readonly records = new Map<string, ReplayState>();
  /** Where each record is: its region and instance id, by recordKey. */
  readonly places = new Map<string, { regionCode: string; instanceId: string }>();
  private readonly optionStates = new Map<string, ReplayState>();
  private readonly optionListings = new Map<string, OptionListing>();
  /** The options of each record that have a listing, by recordKey. */
  private readonly optionsOf = new Map<string, Set<OtherPurchaseOption>>();

  constructor(private readonly options: ReadonlySet<OtherPurchaseOption>) {}

  /**
   * Applies one recording at `at` (epoch ms); `known` says which entries describe a record the
   * catalogue can store (the others are not replayed: their specs are unknown).
   */
  applyRecording(
    recording: DatedRecording,
    at: number,
    syncId: string,
    known: (entry: RecordedDelisting) => boolean,
  ): void {
    const touched = new Set<string>();
    for (const entry of recording.listed) {
      if (!known(entry)) continue;
      const key = this.place(entry);
      const { hourlyMicros, monthlyMicros } = entry;
      this.stepRecord(
        key,
        { hourlyMicros, monthlyMicros, available: true, listedAt: at },
        at,
        syncId,
      );
      touched.add(key);
    }
    for (const entry of recording.delisted) {
      const key = recordKey(entry.regionCode, entry.instanceId);
      const before = this.records.get(key);
      if (before === undefined) continue;
      this.stepRecord(key, { ...before, available: false }, at, syncId);
      touched.add(key);
    }
    for (const [name, changes] of Object.entries(recording.options ?? {}) as [
      OtherPurchaseOption,
      { listed: readonly RecordedListing[]; delisted: readonly RecordedDelisting[] },
    ][]) {
      for (const entry of changes.listed) {
        if (!known(entry)) continue;
        const key = this.place(entry);
        const { hourlyMicros, monthlyMicros } = entry;
        this.list(key, name, { hourlyMicros, monthlyMicros, listedAt: at, listed: true });
        touched.add(key);
      }
      for (const entry of changes.delisted) {
        const key = recordKey(entry.regionCode, entry.instanceId);
        const listing = this.optionListings.get(figureKey(key, name));
        if (listing === undefined) continue;
        this.list(key, name, { ...listing, listed: false });
        touched.add(key);
      }
    }
    for (const key of touched) this.settleOptions(key, at, syncId);
  }

  /**
   * Applies the catalogue as the newest recording, complete: what it does not hold is gone.
   * `options` holds its figures of the replayed options only.
   */
  applyCatalogue(
    records: readonly CurrentFigure[],
    options: ReadonlyMap<OtherPurchaseOption, readonly CurrentFigure[]>,
    at: number,
    syncId: string,
    placeOf: (key: string) => { regionCode: string; instanceId: string },
  ): void {
    const current = new Set(records.map((r) => r.key));
    for (const r of records) {
      this.places.set(r.key, placeOf(r.key));
      const { hourlyMicros, monthlyMicros } = r;
      this.stepRecord(
        r.key,
        { hourlyMicros, monthlyMicros, available: true, listedAt: at },
        at,
        syncId,
      );
    }
    for (const [key, before] of [...this.records]) {
      if (!current.has(key) && before.available) {
        this.stepRecord(key, { ...before, available: false }, at, syncId);
      }
    }
    for (const name of this.options) {
      const figures = options.get(name) ?? [];
      const listed = new Set(figures.map((f) => f.key));
      for (const f of figures) {
        const { hourlyMicros, monthlyMicros } = f;
        this.list(f.key, name, {
          hourlyMicros,
          monthlyMicros,
          listedAt: f.observedAt,
          listed: true,
        });
      }
      for (const [key, names] of this.optionsOf) {
        const listing = this.optionListings.get(figureKey(key, name));
        if (names.has(name) && !listed.has(key) && listing !== undefined) {
          this.list(key, name, { ...listing, listed: false });
        }
      }
    }
    for (const key of this.optionsOf.keys()) this.settleOptions(key, at, syncId);
  }

  private place(entry: RecordedDelisting): string {
    const key = recordKey(entry.regionCode, entry.instanceId);
    this.places.set(key, { regionCode: entry.regionCode, instanceId: entry.instanceId });
    return key;
  }

  private list(key: string, name: OtherPurchaseOption, listing: OptionListing): void {
    if (!this.options.has(name)) return;
    this.optionListings.set(figureKey(key, name), listing);
    const names = this.optionsOf.get(key) ?? new Set();
    names.add(name);
    this.optionsOf.set(key, names);
  }

  private stepRecord(key: string, after: ReplayState, at: number, syncId: string): void {
    const before = this.records.get(key);
    const kind = classifyChange(before, after);
    this.records.set(key, after);
    if (kind !== undefined) {
      this.events.push({ key, option: 'on_demand', at, syncId, kind, before, after });
    }
  }

  /** Each option of the record as its listing and the record's availability make it now. */
  private settleOptions(key: string, at: number, syncId: string): void {
    const recordAvailable = this.records.get(key)?.available === true;
    for (const name of this.optionsOf.get(key) ?? []) {
      const listing = this.optionListings.get(figureKey(key, name));
      if (listing === undefined) continue;
      const state = figureKey(key, name);
      const before = this.optionStates.get(state);
      const after: ReplayState = {
        hourlyMicros: listing.hourlyMicros,
        monthlyMicros: listing.monthlyMicros,
        available: listing.listed && recordAvailable,
        listedAt: listing.listedAt,
      };
      const kind = classifyChange(before, after);
      // Never offered yet (its record not listed): no period to open, so its first offer is
      // `added`, not `returned`.
      if (before === undefined && kind === undefined) continue;
      this.optionStates.set(state, after);
      if (kind !== undefined)
        this.events.push({ key, option: name, at, syncId, kind, before, after });
    }
  }
}
