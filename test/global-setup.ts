// Runs once before the suite: says plainly which backends this run covers, so a run on a
// machine without PostgreSQL or Redis cannot be mistaken for a full one. With CI=true a missing
// backend fails the run here, before any suite starts.
import { TEST_DATABASE_URL, postgresUnavailableReason } from './support/backends.js';
import { TEST_REDIS_URL, redisUnavailableReason } from './support/infra-backends.js';

export default async function setup(): Promise<void> {
  const [postgres, redis] = await Promise.all([
    postgresUnavailableReason(TEST_DATABASE_URL),
    redisUnavailableReason(TEST_REDIS_URL),
  ]);
  const line = (name: string, reason: string | undefined) =>
    `  ${name}: ${reason === undefined ? 'runs' : `SKIPPED (${reason})`}`;
  console.log(
    [
      'Backends in this run:',
      line('sqlite', undefined),
      line('memory', undefined),
      line('postgres', postgres),
      line('redis', redis),
    ].join('\n'),
  );
  if (process.env['CI'] === 'true' && (postgres !== undefined || redis !== undefined)) {
    throw new Error('CI=true: every backend must run, but some are unreachable (see above)');
  }
}
