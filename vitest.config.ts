import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Suites start real servers, SQLite files, PostgreSQL and Redis: give them room on a
    // shared 2-core machine. These are hang guards, not timing assertions.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves one core free: one worker on a 2-core machine, where most files
    // wait on child processes, sockets and browsers. Two workers there took the whole suite from
    // about 13 to 8.5 minutes with every test passing; larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/registered-providers.ts'],
    reporters: ['default'],
  },
});
