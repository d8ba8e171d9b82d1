// D64 with purchase options (D61): a dated-recordings file may carry, per recording, a change
// log per option beside the on-demand one. Written by formatDatedRecordings from complete
// recordings and read back by parseDatedRecordings; a file without options reads as before.
import { describe, expect, it } from 'vitest';
import {
  DatedRecordingsError,
  formatDatedRecordings,
  parseDatedRecordings,
  type RecordingInput,
} from './dated-recordings.js';

const INPUTS: RecordingInput[] = [
  {
    observedAt: '2025-07-31T04:30:47Z',
    source: 'week 1',
    prices: [
      ['tokyo', 'e2-standard-2', '0.08596572'],
      ['tokyo', 'f1-micro', '0.0092'],
    ],
    options: {
      spot: [
        ['tokyo', 'e2-standard-2', '0.0516'],
        ['tokyo', 'f1-micro', '0.000828'],
      ],
      reserved_1y: [['tokyo', 'e2-standard-2', '0.0541584']],
    },
  },
  {
    observedAt: '2025-08-07T04:00:00Z',
    source: 'week 2',
    prices: [
      ['tokyo', 'e2-standard-2', '0.08596572'],
      ['tokyo', 'f1-micro', '0.0092'],
    ],
    options: {
      spot: [['tokyo', 'e2-standard-2', '0.0401']],
      reserved_1y: [['tokyo', 'e2-standard-2', '0.0541584']],
    },
  },
  {
    observedAt: '2025-08-14T04:00:00Z',
    source: 'week 3',
    prices: [
      ['tokyo', 'e2-standard-2', '0.08596572'],
      ['tokyo', 'f1-micro', '0.0092'],
    ],
    options: {
      spot: [['tokyo', 'e2-standard-2', '0.0401']],
      reserved_1y: [['tokyo', 'e2-standard-2', '0.0541584']],
    },
  },
];

describe('dated recordings with purchase options', () => {
  it('writes each option as a change log and reads it back, monthly = hourly x 730 in cents', () => {
    const recordings = parseDatedRecordings(JSON.parse(formatDatedRecordings(INPUTS)));
    expect(recordings).toHaveLength(3);
    const [first, second, third] = recordings;
    expect(first?.options?.spot?.listed).toEqual([
      {
        regionCode: 'tokyo',
        instanceId: 'e2-standard-2',
        hourlyMicros: 51_600,
        monthlyMicros: 37_670_000,
      },
      { regionCode: 'tokyo', instanceId: 'f1-micro', hourlyMicros: 828, monthlyMicros: 600_000 },
    ]);
    // 0.0541584 -> 54,158 micros; x 730 = 39.535... -> 39.54
    expect(first?.options?.reserved_1y?.listed[0]).toMatchObject({
      hourlyMicros: 54_158,
      monthlyMicros: 39_540_000,
    });
    // Week 2: one spot price changed, f1-micro no longer sold as spot; reserved unchanged.
    expect(second?.listed).toEqual([]);
    expect(second?.options).toEqual({
      spot: {
        listed: [
          {
            regionCode: 'tokyo',
            instanceId: 'e2-standard-2',
            hourlyMicros: 40_100,
            monthlyMicros: 29_270_000,
          },
        ],
        delisted: [{ regionCode: 'tokyo', instanceId: 'f1-micro' }],
      },
    });
    // Week 3 changed nothing: no options written at all.
    expect(third?.options).toBeUndefined();
  });

  it('writes a file without options byte for byte as before (on-demand only)', () => {
    const text = formatDatedRecordings(
      INPUTS.map(({ observedAt, source, prices }) => ({ observedAt, source, prices })),
    );
    expect(text).not.toContain('"options"');
    expect(text).toContain(
      '      "listed": [\n        ["tokyo","e2-standard-2","0.08596572"],\n        ["tokyo","f1-micro","0.0092"]\n      ],\n      "delisted": []\n    },',
    );
    expect(parseDatedRecordings(JSON.parse(text)).every((r) => r.options === undefined)).toBe(true);
  });

  it('refuses an unknown or on-demand option, a monthly figure, a repeat and an early delisting', () => {
    const file = (options: unknown, index = 0) => ({
      format: 'cloudprice-dated-recordings-1',
      recordings: [
        { observed_at: '2025-07-31T04:30:47Z', source: 'a', listed: [['t', 'x', '1']] },
        { observed_at: '2025-08-07T04:30:47Z', source: 'b', listed: [] },
      ].map((r, i) => (i === index ? { ...r, options } : r)),
    });
    const refused = (options: unknown, index = 0) =>
      expect(() => parseDatedRecordings(file(options, index))).toThrow(DatedRecordingsError);
    refused({ preemptible: { listed: [['t', 'x', '1']] } });
    refused({ on_demand: { listed: [['t', 'x', '1']] } });
    refused({ spot: { listed: [['t', 'x', '1', '730']] } });
    refused({ spot: { listed: [['t', 'x', '-1']] } });
    refused({
      spot: {
        listed: [
          ['t', 'x', '1'],
          ['t', 'x', '2'],
        ],
      },
    });
    refused({ spot: { delisted: [['t', 'x']] } });
    refused({ spot: [] });
    refused([]);
    expect(parseDatedRecordings(file({ spot: { delisted: [['t', 'x']] } }, 1))[1]?.options).toEqual(
      { spot: { listed: [], delisted: [{ regionCode: 't', instanceId: 'x' }] } },
    );
  });
});
