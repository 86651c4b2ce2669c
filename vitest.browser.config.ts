import { defineConfig } from 'vitest/config';

// `npm run test:browser`: end-to-end flows in Debian's chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['apps/web/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A page waits on a server doing real work (OCR, a workbook); vitest's 1 s default for
    // `expect.poll` fails a right screen that answers in 1.2 s on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    // One file at a time: each starts its own server and browser, and the machine has few cores.
    fileParallelism: false,
    // Files share one module graph, so the server code (better-auth, PGlite, drizzle…) is imported once
    // instead of once per file: about a third off the suite's time. Every file still gets its own server,
    // database and browser from the harness (apps/web/e2e/support/harness.ts), so no state is shared.
    isolate: false,
  },
});
