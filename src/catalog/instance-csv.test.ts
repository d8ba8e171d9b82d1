import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../test/support/parse-csv.js';
import { INSTANCE_CSV_COLUMNS, csvCell, instancesToCsv } from './instance-csv.js';
import type { InstanceRecord } from './instance-json.js';

const record = (overrides: Partial<InstanceRecord> = {}): InstanceRecord => ({
  id: 7,
  instance_id: 'g6-standard-2',
  instance_name: 'Linode 4GB',
  vcpu: 2,
  memory_mb: 4096,
  storage_gb: 80,
  transfer_tb: 4,
  network_speed_gbps: 4,
  gpu_count: 0,
  gpu_type: null,
  instance_family: 'general',
  field_notes: {},
  provider: { id: 1, name: 'provider_a', display_name: 'Linode' },
  region: {
    id: 1,
    region_code: 'ap-northeast',
    region_name: 'Tokyo',
    country_code: 'JP',
    provider_region_id: 'ap-northeast',
    city: 'tokyo',
  },
  pricing: {
    hourly_price: 0.036,
    monthly_price: 24,
    currency: 'USD',
    available: 1,
    observed_at: '2026-11-23T06:00:04.512Z',
    monthly_price_per_vcpu: 12,
    monthly_price_per_gb: 6,
    purchase_option: 'on_demand',
    options: {
      on_demand: {
        hourly_price: 0.036,
        monthly_price: 24,
        observed_at: '2026-11-23T06:00:04.512Z',
      },
    },
    spot_advice: null,
  },
  cpu: { architecture: null, manufacturer: null, model: null, allocation: 'shared' },
  gpu_memory_gb: null,
  storage_type: null,
  benchmark: null,
  ...overrides,
});

describe('CSV cells (RFC 4180, D47 injection rule)', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['line\nfeed', '"line\nfeed"'],
    ['=1+2', "'=1+2"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTAB', "'\tTAB"],
    ['\rCR', `"'\rCR"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['a=b', 'a=b'],
    [' =1', ' =1'],
    ['', ''],
    [null, ''],
    [0.0001, '0.0001'],
    [24, '24'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('reads back as the text it was given, never starting like a formula', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }),
        (cells) => {
          const line = `${cells.map(csvCell).join(',')}\r\n`;
          const [read] = parseCsv(line);
          expect(read).toHaveLength(cells.length);
          read!.forEach((text, i) => {
            expect(text).not.toMatch(/^[=+\-@\t\r]/);
            const original = cells[i]!;
            expect(text === original || text === `'${original}`).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('instancesToCsv (D47)', () => {
  it('writes the header row and D47 columns in order, every line ending in CRLF', () => {
    const text = instancesToCsv([
      record(),
      record({ id: 8, gpu_count: 1, gpu_type: 'NVIDIA L4', instance_name: '=cmd|"/c calc"!A1' }),
    ]);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...INSTANCE_CSV_COLUMNS]);
    expect(rows[1]).toEqual([
      '7',
      'provider_a',
      'ap-northeast',
      'Tokyo',
      'g6-standard-2',
      'Linode 4GB',
      '2',
      '4096',
      '80',
      '4',
      '4',
      '0',
      '',
      'general',
      '0.036',
      '24',
      'USD',
    ]);
    expect(rows[2]![5]).toBe(`'=cmd|"/c calc"!A1`);
    expect(rows[2]![12]).toBe('NVIDIA L4');
  });

  it('writes only the header for no records', () => {
    expect(instancesToCsv([])).toBe(`${INSTANCE_CSV_COLUMNS.join(',')}\r\n`);
  });
});
