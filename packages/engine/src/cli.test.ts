import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle, currentBundle } from '../bin/load-cli.mjs';

describe('the CLI bundle cache', () => {
  it('bundles the CLI and its worker, records every source, and goes stale when one changes', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'bahi-bundle-'));
    try {
      expect(currentBundle(cache)).toBeNull();
      const dir = await buildBundle(cache);
      expect(existsSync(join(dir, 'cli.js'))).toBe(true);
      expect(existsSync(join(dir, 'cli-worker.js'))).toBe(true);
      expect(currentBundle(cache)).toBe(dir);
      const manifestPath = join(cache, 'current.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        inputs: Record<string, string>;
      };
      // The engine's sources and the workspace package it bundles in, not npm packages.
      expect(Object.keys(manifest.inputs)).toEqual(
        expect.arrayContaining(['src/cli.ts', 'src/extract.ts', 'src/ocr/page.ts', '../india/src/index.ts']),
      );
      expect(Object.keys(manifest.inputs).some((f) => f.includes('node_modules'))).toBe(false);
      // An edited source (here: a recorded hash that no longer matches) makes the bundle stale.
      manifest.inputs['src/extract.ts'] = '0'.repeat(40);
      writeFileSync(manifestPath, JSON.stringify(manifest));
      expect(currentBundle(cache)).toBeNull();
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
