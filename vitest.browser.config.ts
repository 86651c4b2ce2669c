import { defineConfig } from 'vitest/config';

// `npm run test:browser`: end-to-end flows in Debian's chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['apps/web/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
