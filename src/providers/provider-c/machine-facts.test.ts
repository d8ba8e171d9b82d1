// provider_c's machine facts (D62) and CoreMark (D63): the committed table is exactly what the
// generator makes of the recordings in data/sources/, it covers every type the specs recording
// names, and a few figures read straight from the recordings.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_MACHINE_FACTS } from '../../catalog/machine-facts.js';
import { readRecordedCsv } from '../snapshot/recorded-csv.js';
import { AWS_COREMARK_SOURCE, awsMachineFacts, withAwsMachineFacts } from './machine-facts.js';
import {
  SPECS_FILE,
  machineFactsModule,
  readAwsMachineFacts,
} from './snapshot/machine-facts-generate.js';

describe('provider_c machine facts', () => {
  it('machine-facts.data.ts is exactly what npm run snapshots:generate writes', async () => {
    const committed = await readFile(new URL('./machine-facts.data.ts', import.meta.url), 'utf8');
    expect(committed).toBe(machineFactsModule(await readAwsMachineFacts()));
  });

  it('covers every type of the specs recording', async () => {
    const rows = await readRecordedCsv(SPECS_FILE, ['instance_type']);
    expect(rows).toHaveLength(807);
    for (const row of rows) {
      expect(awsMachineFacts(row.cells.get('instance_type')!)).not.toBe(UNKNOWN_MACHINE_FACTS);
    }
  });

  it('holds the recorded figures', () => {
    expect(awsMachineFacts('c7i.xlarge')).toEqual({
      cpuArchitecture: 'x86_64',
      cpuManufacturer: 'Intel',
      cpuModel: 'Xeon 8488C',
      cpuAllocation: 'dedicated',
      gpuMemoryGb: null,
      storageType: null,
      coremark: {
        score: 97652,
        ranAt: Date.parse('2025-12-10T20:57:17.302Z'),
        source: AWS_COREMARK_SOURCE,
      },
    });
    const nano = awsMachineFacts('t4g.nano');
    expect([nano.cpuArchitecture, nano.cpuAllocation, nano.coremark?.score]).toEqual([
      'arm64',
      'burstable',
      38489,
    ]);
    // GPU memory as recorded (GiB = MiB / 1024), local NVMe.
    expect(awsMachineFacts('g6.xlarge')).toMatchObject({
      gpuMemoryGb: 22.3515625,
      storageType: 'nvme_ssd',
    });
    // i386 is outside D62's vocabulary: null, not read as x86_64.
    expect(awsMachineFacts('m1.small')).toMatchObject({
      cpuArchitecture: null,
      storageType: 'hdd',
    });
  });

  it('gives a type neither recording names no facts, and attaches by type', () => {
    expect(awsMachineFacts('zz9.huge')).toBe(UNKNOWN_MACHINE_FACTS);
    const offer = withAwsMachineFacts({
      instanceId: 't4g.nano',
      instanceName: 't4g.nano',
      vcpu: 2,
      memoryMb: 512,
      storageGb: 0,
      transferTb: 0,
      networkSpeedGbps: 0.032,
      gpuCount: 0,
      gpuType: null,
      family: 'general',
      regionCode: 'ap-northeast-1',
      hourlyMicros: 5_400,
      monthlyMicros: 3_942_000,
    });
    expect(offer.facts?.cpuArchitecture).toBe('arm64');
  });
});
