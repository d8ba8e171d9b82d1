import { describe, expect, it } from 'vitest';
import { computeRequirements, formatMemory } from './requirements.js';
import { STACK_NAMES } from './stacks.js';
import type { Scale, StackName } from './stacks.js';

// Expected values worked out by hand from section 2.9: per-stack MB at the scale, + 768 overhead,
// vCPU = max(1, ceil(total / 2048)).
const SINGLE: readonly (readonly [StackName, Scale, number, number, string])[] = [
  ['nginx', 'small', 896, 1, '128MB'],
  ['nginx', 'medium', 1024, 1, '256MB'],
  ['nginx', 'large', 1152, 1, '384MB'],
  ['php-fpm', 'small', 1280, 1, '512MB'],
  ['php-fpm', 'medium', 1792, 1, '1GB'],
  ['php-fpm', 'large', 2304, 2, '1.5GB'],
  ['mysql', 'small', 1792, 1, '1GB'],
  ['mysql', 'medium', 2816, 2, '2GB'],
  ['mysql', 'large', 3840, 2, '3GB'],
  ['mariadb', 'small', 1792, 1, '1GB'],
  ['mariadb', 'medium', 2816, 2, '2GB'],
  ['mariadb', 'large', 3840, 2, '3GB'],
  ['postgresql', 'small', 1792, 1, '1GB'],
  ['postgresql', 'medium', 2816, 2, '2GB'],
  ['postgresql', 'large', 3840, 2, '3GB'],
  ['redis', 'small', 1024, 1, '256MB'],
  ['redis', 'medium', 1280, 1, '512MB'],
  ['redis', 'large', 1536, 1, '768MB'],
  ['elasticsearch', 'small', 2816, 2, '2GB'],
  ['elasticsearch', 'medium', 4864, 3, '4GB'],
  ['elasticsearch', 'large', 6912, 4, '6GB'],
  ['nodejs', 'small', 1280, 1, '512MB'],
  ['nodejs', 'medium', 1792, 1, '1GB'],
  ['nodejs', 'large', 2304, 2, '1.5GB'],
  ['docker', 'small', 1792, 1, '1GB'],
  ['docker', 'medium', 2816, 2, '2GB'],
  ['docker', 'large', 3840, 2, '3GB'],
  ['mongodb', 'small', 1792, 1, '1GB'],
  ['mongodb', 'medium', 2816, 2, '2GB'],
  ['mongodb', 'large', 3840, 2, '3GB'],
];

describe('computeRequirements', () => {
  it('covers every stack at every scale in the table', () => {
    const covered = new Set(SINGLE.map(([name, scale]) => `${name}/${scale}`));
    expect(covered.size).toBe(STACK_NAMES.length * 3);
  });

  it.each(SINGLE)('%s at %s needs %i MB and %i vCPU', (name, scale, mb, vcpu, entry) => {
    const result = computeRequirements([name], scale);
    expect(result.minMemoryMb).toBe(mb);
    expect(result.minVcpu).toBe(vcpu);
    expect(result.breakdown).toEqual({ [name]: entry, os_overhead: '768MB' });
    expect(Object.keys(result.breakdown)).toEqual([name, 'os_overhead']);
  });

  it('sums a mixed stack and keeps the order given', () => {
    // 256 + 1024 + 2048 + 512 + 768 = 4608 MB; ceil(4608 / 2048) = 3.
    const result = computeRequirements(['nginx', 'php-fpm', 'mysql', 'redis'], 'medium');
    expect(result.minMemoryMb).toBe(4608);
    expect(result.minVcpu).toBe(3);
    expect(JSON.stringify(result.breakdown)).toBe(
      '{"nginx":"256MB","php-fpm":"1GB","mysql":"2GB","redis":"512MB","os_overhead":"768MB"}',
    );
  });

  it('counts a duplicated name once, at its first position', () => {
    // 256 + 128 + 768 = 1152 MB.
    const result = computeRequirements(['redis', 'nginx', 'redis', 'nginx'], 'small');
    expect(result.minMemoryMb).toBe(1152);
    expect(result.minVcpu).toBe(1);
    expect(JSON.stringify(result.breakdown)).toBe(
      '{"redis":"256MB","nginx":"128MB","os_overhead":"768MB"}',
    );
  });

  it('adds all ten stacks at large scale', () => {
    // Recommended sum 17152 MB x 1.5 = 25728, + 768 = 26496; 26496 / 2048 = 12.9375 -> 13.
    const result = computeRequirements([...STACK_NAMES].reverse(), 'large');
    expect(result.minMemoryMb).toBe(26496);
    expect(result.minVcpu).toBe(13);
    expect(Object.keys(result.breakdown)).toEqual([...[...STACK_NAMES].reverse(), 'os_overhead']);
    expect(result.breakdown.elasticsearch).toBe('6GB');
    expect(result.breakdown.nginx).toBe('384MB');
  });

  it('rounds the vCPU up only past a 2048 MB boundary', () => {
    const exact = computeRequirements(['redis', 'mysql'], 'small'); // 256 + 1024 + 768 = 2048
    expect(exact.minMemoryMb).toBe(2048);
    expect(exact.minVcpu).toBe(1);
    const above = computeRequirements(['redis', 'nginx', 'mysql'], 'small'); // 2176
    expect(above.minMemoryMb).toBe(2176);
    expect(above.minVcpu).toBe(2);
  });
});

describe('formatMemory', () => {
  it.each([
    [128, '128MB'],
    [768, '768MB'],
    [1023, '1023MB'],
    [1024, '1GB'],
    [1280, '1.25GB'],
    [1536, '1.5GB'],
    [3072, '3GB'],
    [3584, '3.5GB'],
  ])('%i MB is %s', (mb, text) => {
    expect(formatMemory(mb)).toBe(text);
  });
});
