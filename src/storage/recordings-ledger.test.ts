// The replay's ledger (D64 with D61 options): which events a series of recordings and then the
// catalogue produce, per record and option, in time order.
import { describe, expect, it } from 'vitest';
import { recordKey, type DatedRecording } from '../catalog/dated-recordings.js';
import { optionPrice } from '../catalog/purchase-options.js';
import { recordedOptions, ReplayLedger } from './recordings-ledger.js';

const KEY = recordKey('tokyo', 'e2-standard-2');
const place = { regionCode: 'tokyo', instanceId: 'e2-standard-2' };
const listing = (hourlyMicros: number, monthlyMicros = hourlyMicros * 730) => ({
  ...place,
  hourlyMicros,
  monthlyMicros,
});
const spot = (hourly: number) => ({ ...place, ...optionPrice(hourly) });

function recording(at: number, parts: Partial<DatedRecording>): DatedRecording {
  return { observedAt: new Date(at), source: 'test', listed: [], delisted: [], ...parts };
}

const summary = (ledger: ReplayLedger) =>
  ledger.events.map((e) => [e.at, e.option, e.kind, e.after.hourlyMicros, e.after.available]);

describe('the replay ledger with options', () => {
  it('dates each spot change at its recording and ends at the catalogue', () => {
    const recordings = [
      recording(1, {
        listed: [listing(100)],
        options: { spot: { listed: [spot(40)], delisted: [] } },
      }),
      recording(2, { options: { spot: { listed: [spot(30)], delisted: [] } } }),
      recording(3, { options: { spot: { listed: [spot(35)], delisted: [] } } }),
    ];
    const options = recordedOptions(recordings);
    expect([...options]).toEqual(['spot']);
    const ledger = new ReplayLedger(options);
    for (const r of recordings) ledger.applyRecording(r, r.observedAt.getTime(), 's', () => true);
    ledger.applyCatalogue(
      [{ key: KEY, hourlyMicros: 100, monthlyMicros: 73_000, observedAt: 4 }],
      new Map([['spot', [{ key: KEY, ...optionPrice(50), observedAt: 4 }]]]),
      4,
      'now',
      () => place,
    );
    expect(summary(ledger)).toEqual([
      [1, 'on_demand', 'added', 100, true],
      [1, 'spot', 'added', 40, true],
      [2, 'spot', 'price_decreased', 30, true],
      [3, 'spot', 'price_increased', 35, true],
      [4, 'spot', 'price_increased', 50, true],
    ]);
  });

  it('removes a delisted record’s options with it and brings them back when it returns', () => {
    const recordings = [
      recording(1, {
        listed: [listing(100)],
        options: { spot: { listed: [spot(40)], delisted: [] } },
      }),
      recording(2, { delisted: [place] }),
      recording(3, { listed: [listing(100)] }),
      recording(4, { options: { spot: { listed: [], delisted: [place] } } }),
    ];
    const ledger = new ReplayLedger(recordedOptions(recordings));
    for (const r of recordings) ledger.applyRecording(r, r.observedAt.getTime(), 's', () => true);
    expect(summary(ledger)).toEqual([
      [1, 'on_demand', 'added', 100, true],
      [1, 'spot', 'added', 40, true],
      [2, 'on_demand', 'removed', 100, false],
      [2, 'spot', 'removed', 40, false],
      [3, 'on_demand', 'returned', 100, true],
      [3, 'spot', 'returned', 40, true],
      [4, 'spot', 'removed', 40, false],
    ]);
  });

  it('opens an option listed before its record as added when the record comes', () => {
    const recordings = [
      recording(1, { options: { spot: { listed: [spot(40)], delisted: [] } } }),
      recording(2, { listed: [listing(100)] }),
    ];
    const ledger = new ReplayLedger(recordedOptions(recordings));
    for (const r of recordings) ledger.applyRecording(r, r.observedAt.getTime(), 's', () => true);
    expect(summary(ledger)).toEqual([
      [2, 'on_demand', 'added', 100, true],
      [2, 'spot', 'added', 40, true],
    ]);
  });

  it('removes at the catalogue an option it no longer lists, and ignores options not recorded', () => {
    const recordings = [
      recording(1, {
        listed: [listing(100)],
        options: { spot: { listed: [spot(40)], delisted: [] } },
      }),
    ];
    const ledger = new ReplayLedger(recordedOptions(recordings));
    for (const r of recordings) ledger.applyRecording(r, 1, 's', () => true);
    ledger.applyCatalogue(
      [{ key: KEY, hourlyMicros: 100, monthlyMicros: 73_000, observedAt: 4 }],
      new Map([['reserved_1y', [{ key: KEY, ...optionPrice(60), observedAt: 4 }]]]),
      4,
      'now',
      () => place,
    );
    expect(summary(ledger)).toEqual([
      [1, 'on_demand', 'added', 100, true],
      [1, 'spot', 'added', 40, true],
      [4, 'spot', 'removed', 40, false],
    ]);
  });

  it('keeps AWS-style on-demand-only recordings to on-demand events', () => {
    const recordings = [
      recording(1, { listed: [listing(100)] }),
      recording(2, { listed: [listing(90)] }),
    ];
    expect(recordedOptions(recordings).size).toBe(0);
    const ledger = new ReplayLedger(recordedOptions(recordings));
    for (const r of recordings) ledger.applyRecording(r, r.observedAt.getTime(), 's', () => true);
    expect(summary(ledger)).toEqual([
      [1, 'on_demand', 'added', 100, true],
      [2, 'on_demand', 'price_decreased', 90, true],
    ]);
  });
});
