import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = new URL('../../../', import.meta.url).pathname;

/** Every test file of the repository (unit, service and browser tests). */
function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (/\.test\.(?:ts|tsx|mts)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('tests stand alone', () => {
  it('no test reads the shared corpus beside the repository (it exists only in this workspace)', () => {
    const offenders = testFiles(repo)
      .filter((f) => !f.endsWith('standalone.test.ts'))
      // Code that resolves a path into ../shared (a URL or a path), not a comment naming it.
      .filter((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .some((line) => !/^\s*(?:\/\/|\*)/.test(line) && /\.\.\/shared\b|shared\/corpus/.test(line)),
      )
      .map((f) => relative(repo, f));
    expect(offenders).toEqual([]);
  });
});
