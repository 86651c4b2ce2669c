import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import type { GrayImage } from './page.ts';
import { resampleGray, resampleInto, toByte } from './resample.ts';

/** A band of a rendered dev invoice: print, rules and paper. */
function band(dpi: number, height: number): GrayImage {
  const page = renderPage(openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0), dpi);
  const width = Math.min(page.width - 20, 8 * height);
  const data = new Uint8Array(width * height);
  const top = Math.round(page.height * 0.3);
  for (let y = 0; y < height; y++)
    data.set(page.gray.subarray((top + y) * page.width + 10, (top + y) * page.width + 10 + width), y * width);
  return { data, width, height };
}

async function viaSharp(g: GrayImage, width: number, height: number): Promise<Uint8Array> {
  const { data } = await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/**
 * The separable filter evaluated pixel by pixel, every tap clamped as it is read: what the fast
 * loops (taps cached, unrolled, zero taps dropped) must reproduce exactly.
 */
function naive(g: GrayImage, width: number, height: number): Uint8Array {
  const weigh = (inSize: number, outSize: number) => {
    const scale = outSize / inSize;
    const shrink = scale < 1;
    const support = shrink ? 3 / scale : 2;
    const count = inSize === outSize ? 1 : Math.ceil(2 * support) + 1;
    return Array.from({ length: outSize }, (_, o) => {
      if (inSize === outSize) return [{ i: o, w: 1 }];
      const centre = shrink ? (o + 0.5) / scale - 0.5 : o / scale - 0.5;
      const start = Math.floor(centre - support) + 1;
      const raw = Array.from({ length: count }, (_, k) => {
        if (!shrink) {
          const x = Math.abs(start + k - centre);
          if (x < 1) return 1.5 * x * x * x - 2.5 * x * x + 1;
          return x < 2 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 0;
        }
        const x = (start + k - centre) * scale;
        if (x === 0) return 1;
        if (x <= -3 || x >= 3) return 0;
        const px = Math.PI * x;
        return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
      });
      const sum = raw.reduce((a, w) => a + w, 0);
      const norm = Float32Array.from(raw, (w) => Math.fround(w) / sum);
      return [...norm].map((w, k) => ({ i: Math.min(inSize - 1, Math.max(0, start + k)), w }));
    });
  };
  const tx = weigh(g.width, width);
  const ty = weigh(g.height, height);
  const mid = new Float32Array(g.height * width);
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < width; x++)
      mid[y * width + x] = (tx[x] ?? []).reduce((a, t) => a + t.w * (g.data[y * g.width + t.i] as number), 0);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = (ty[y] ?? []).reduce((a, t) => a + t.w * (mid[t.i * width + x] as number), 0);
      out[y * width + x] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  return out;
}

describe('toByte', () => {
  it('rounds as Math.round does, clamped to grey levels, at every half and binade edge', () => {
    const below = (x: number) => x - Number.EPSILON * Math.max(1, Math.abs(x));
    const values = [-3, -0.5, -0, 0, 1e-300, 0.25, 0.49999999999999994, 254.2, 255, 256, 1e9];
    for (let k = 0; k <= 256; k++) values.push(k - 0.5, below(k - 0.5), k + 0.5, below(k + 0.5), k, below(k));
    for (let e = -2; e <= 8; e++) values.push(2 ** e - 0.5, below(2 ** e - 0.5), below(2 ** e));
    for (const v of values) expect(toByte(v)).toBe(v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
  });
});

describe('resampleGray', () => {
  it.each([
    [200, 28, 0.6],
    [100, 12, 1],
    [300, 90, 1.3],
    [150, 48, 1],
  ])('gives exactly the per-pixel filter’s pixels (%i dpi, %i high, widths × %f)', (dpi, height, k) => {
    const g = band(dpi, height);
    const width = Math.max(8, Math.round((k * 48 * g.width) / g.height));
    // Twice: the second call reuses its buffers and cached taps.
    expect(resampleGray(g, width, 48)).toEqual(naive(g, width, 48));
    expect(resampleGray(g, width, 48)).toEqual(naive(g, width, 48));
  });

  it('keeps an image of the same size as it is', () => {
    const g = band(150, 40);
    expect(resampleGray(g, g.width, g.height)).toEqual(g.data);
  });

  it.each([
    [100, 22],
    [200, 36],
    [200, 60],
    [300, 110],
  ])(
    'resizes a %i dpi band %i pixels high to the recogniser’s 48 about as sharp does',
    async (dpi, height) => {
      const g = band(dpi, height);
      const width = Math.round((48 * g.width) / g.height);
      const want = await viaSharp(g, width, 48);
      const got = resampleGray(g, width, 48);
      let diff = 0;
      let worst = 0;
      for (let i = 0; i < want.length; i++) {
        const d = Math.abs((got[i] as number) - (want[i] as number));
        diff += d;
        worst = Math.max(worst, d);
      }
      // Measured 0.01–0.12 on average; the odd edge pixel more.
      expect(diff / want.length).toBeLessThan(0.3);
      expect(worst).toBeLessThan(32);
    },
  );

  it('writes into a model input through a level table, at its offset and row stride', () => {
    const g = band(200, 30);
    const width = Math.round((48 * g.width) / g.height);
    const levels = Float32Array.from({ length: 256 }, (_, v) => v / 255 - 0.5);
    const stride = width + 5;
    const data = new Float32Array(7 + 48 * stride).fill(9);
    resampleInto(g, width, 48, { data, offset: 7, stride, levels });
    const want = resampleGray(g, width, 48);
    for (let y = 0; y < 48; y++) {
      expect(data.subarray(7 + y * stride, 7 + y * stride + width)).toEqual(
        Float32Array.from(want.subarray(y * width, (y + 1) * width), (v) => levels[v] as number),
      );
      // The padding past each row is left as it was.
      expect([...data.subarray(7 + y * stride + width, 7 + (y + 1) * stride)]).toEqual([9, 9, 9, 9, 9]);
    }
    expect(data[6]).toBe(9);
  });
});
