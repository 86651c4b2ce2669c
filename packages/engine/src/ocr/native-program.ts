import { spawnSync } from 'node:child_process';

// Kept apart from the provider (native-tesseract.ts, which loads the tesseract.js model helpers) so the
// start-up check in providers.ts loads nothing heavy.

/** True when the native `tesseract` program runs on this machine. */
export function hasNativeTesseract(command = 'tesseract'): boolean {
  const r = spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 10_000 });
  return !r.error && r.status === 0;
}
