import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Suites start real servers, SQLite files, PostgreSQL and Redis: give them room on a
    // shared 2-core machine. These are hang guards, not timing assertions.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/registered-providers.ts'],
    reporters: ['default'],
  },
});
