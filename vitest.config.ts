import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that keep both cores busy for long (OCR) or judge the server's responsiveness: they run
 * one at a time after the rest, so neither starves the other nor fails a latency check because a
 * neighbour was recognising a page.
 */
const ALONE = [
  'packages/engine/src/ocr/**/*.test.ts',
  'packages/engine/test/bad-inputs.test.ts',
  'packages/engine/test/ocr-golden.test.ts',
  'packages/engine/test/scanned-einvoice.test.ts',
  'apps/server/src/modules/documents/document-pages.http.test.ts',
  'apps/server/src/jobs/worker-pool.test.ts',
];

// `npm test`: unit, golden and service tests. Browser tests run under vitest.browser.config.ts.
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            // Multi-process scale test; it skips itself unless DATABASE_URL is set.
            'apps/server/scale/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts', ...ALONE],
          // Vitest's default is one file at a time on a 2-core machine (cores − 1), but most test time
          // waits on a database, a mail server or a child process, not computing: two files at a time
          // keep both cores busy and bring the suite well inside CI's half hour.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
