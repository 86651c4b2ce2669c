import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { pageImageDpi, renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { createPaddleOcr, type PaddleOcrProvider, resolveModels } from './paddle.ts';
import { encodePgm, preprocessPage } from './page.ts';
import calibration from './rec-int8.json' with { type: 'json' };
import {
  buildInt8Recogniser,
  cpuHasVnni,
  int8Recogniser,
  quantisedInInt8,
  type RecInt8Calibration,
  sha256,
} from './rec-int8.ts';

const c = calibration as RecInt8Calibration;

describe('the int8 recogniser', () => {
  it('is calibrated for the installed model and rebuilt byte for byte from its calibration', () => {
    const packaged = new Uint8Array(readFileSync(resolveModels().rec));
    expect(c.modelSha256).toBe(sha256(packaged));
    expect(Object.keys(c.ranges).length).toBeGreaterThan(60);
    const built = buildInt8Recogniser(packaged, c.ranges);
    expect(sha256(built)).toBe(c.int8Sha256);
    // Int8 weights: well under the float model's size.
    expect(built.length).toBeLessThan(0.7 * packaged.length);
    // 8-bit weights for a CPU with VNNI: another graph, as reproducible.
    const vnni = sha256(buildInt8Recogniser(packaged, c.ranges, true));
    expect(vnni).not.toBe(c.int8Sha256);
    expect(sha256(buildInt8Recogniser(packaged, c.ranges, true))).toBe(vnni);
    expect(sha256(int8Recogniser(resolveModels().rec) ?? new Uint8Array())).toBe(
      cpuHasVnni() ? vnni : c.int8Sha256,
    );
  });

  it('tells a CPU with VNNI from its flags', () => {
    expect(cpuHasVnni('flags\t\t: fpu sse2 avx2 avx512f avx512bw avx512_vnni\n')).toBe(true);
    expect(cpuHasVnni('flags\t\t: fpu sse2 avx2 avx_vnni\n')).toBe(true);
    expect(cpuHasVnni('flags\t\t: fpu sse2 avx2 fma\n')).toBe(false);
    expect(cpuHasVnni('')).toBe(false);
  });

  it('quantises the wide pointwise convolutions only', () => {
    expect(quantisedInInt8([480, 480, 1, 1])).toBe(true);
    expect(quantisedInInt8([240, 128, 1, 1])).toBe(true);
    expect(quantisedInInt8([128, 64, 1, 1])).toBe(false);
    expect(quantisedInInt8([480, 1, 5, 5])).toBe(false);
    expect(quantisedInInt8([64, 480, 1, 3])).toBe(false);
  });

  describe('on a dev scan', () => {
    let float: PaddleOcrProvider;
    let int8: PaddleOcrProvider;
    beforeAll(async () => {
      [float, int8] = await Promise.all([
        createPaddleOcr({ threads: 1, int8: false }),
        createPaddleOcr({ threads: 1, int8: true }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([float.close(), int8.close()]);
    });

    it('reads the words the float recogniser reads', async () => {
      const scan = openPdf(readFileSync(new URL('invoice-005.pdf', devFixtures))).loadPage(0);
      const dpi = pageImageDpi(scan) ?? 200;
      const r = renderPage(scan, dpi);
      const pre = await preprocessPage({ data: r.gray, width: r.width, height: r.height }, dpi);
      const image = encodePgm(pre.image);
      const [a, b] = [await float.recognize(image), await int8.recognize(image)];
      expect(a.length).toBeGreaterThan(100);
      const left = new Map<string, number>();
      for (const w of b) left.set(w.text, (left.get(w.text) ?? 0) + 1);
      let same = 0;
      for (const w of a) {
        const n = left.get(w.text) ?? 0;
        if (n) {
          same++;
          left.set(w.text, n - 1);
        }
      }
      expect(same / a.length).toBeGreaterThan(0.9);
      expect(Math.abs(b.length - a.length)).toBeLessThanOrEqual(0.05 * a.length);
    });
  });
});
