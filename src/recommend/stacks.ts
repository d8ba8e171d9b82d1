// The supported stacks and their memory figures (specification section 2.9), and the deployment
// scales of POST /recommend. Pure data: the requirements calculation lives in requirements.ts.

/** Stack names exactly as clients send them (lower case, D25), in the specification's order. */
export const STACK_NAMES = [
  'nginx',
  'php-fpm',
  'mysql',
  'mariadb',
  'postgresql',
  'redis',
  'elasticsearch',
  'nodejs',
  'docker',
  'mongodb',
] as const;
export type StackName = (typeof STACK_NAMES)[number];

export const SCALES = ['small', 'medium', 'large'] as const;
export type Scale = (typeof SCALES)[number];

export interface StackMemory {
  /** Memory in MB used for scale `small`. */
  readonly minimumMb: number;
  /** Memory in MB used for scale `medium`; `large` uses 1.5 times this. */
  readonly recommendedMb: number;
}

/** Section 2.9's table in MB (1 GB = 1024 MB). */
export const STACK_MEMORY: Readonly<Record<StackName, StackMemory>> = Object.freeze({
  nginx: { minimumMb: 128, recommendedMb: 256 },
  'php-fpm': { minimumMb: 512, recommendedMb: 1024 },
  mysql: { minimumMb: 1024, recommendedMb: 2048 },
  mariadb: { minimumMb: 1024, recommendedMb: 2048 },
  postgresql: { minimumMb: 1024, recommendedMb: 2048 },
  redis: { minimumMb: 256, recommendedMb: 512 },
  elasticsearch: { minimumMb: 2048, recommendedMb: 4096 },
  nodejs: { minimumMb: 512, recommendedMb: 1024 },
  docker: { minimumMb: 1024, recommendedMb: 2048 },
  mongodb: { minimumMb: 1024, recommendedMb: 2048 },
});

/** Fixed operating-system overhead added at every scale (section 2.9 rule 2), MB. */
export const OS_OVERHEAD_MB = 768;

/** Required memory per suggested vCPU (section 2.9 rule 4), MB. */
export const MB_PER_VCPU = 2048;

/** At most this many entries in `stack`, counted as sent, duplicates included (D25). */
export const MAX_STACK_ENTRIES = 20;

export function isStackName(value: unknown): value is StackName {
  return typeof value === 'string' && (STACK_NAMES as readonly string[]).includes(value);
}

export function isScale(value: unknown): value is Scale {
  return typeof value === 'string' && (SCALES as readonly string[]).includes(value);
}
