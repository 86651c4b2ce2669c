import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm test`: unit, golden and service tests. Browser tests run under vitest.browser.config.ts.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      // Multi-process scale test; it skips itself unless DATABASE_URL is set.
      'apps/server/scale/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one file at a time on a 2-core machine (cores − 1), but most test time is
    // spent waiting on a database, a mail server or a child process, not computing: two files at a time
    // keep both cores busy and bring the suite well inside CI's half hour.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
