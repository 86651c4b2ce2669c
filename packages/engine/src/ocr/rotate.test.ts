import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { pageImageDpi, renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { type GrayImage, greyHistogram } from './page.ts';
import { rotateGray } from './rotate.ts';

/** sharp's rotation on white: the centre crop of the input's size and the whole canvas's histogram. */
async function sharpRotation(
  img: GrayImage,
  angle: number,
): Promise<{ crop: Uint8Array; histogram: Uint32Array }> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.round((info.width - img.width) / 2));
  const top = Math.max(0, Math.round((info.height - img.height) / 2));
  const crop = new Uint8Array(img.width * img.height);
  for (let y = 0; y < img.height; y++)
    crop.set(
      data.subarray((top + y) * info.width + left, (top + y) * info.width + left + img.width),
      y * img.width,
    );
  return { crop, histogram: greyHistogram(new Uint8Array(data.buffer, data.byteOffset, data.length)) };
}

/** How many pixels differ between two buffers of one size. */
function differing(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

describe('rotateGray', () => {
  it('rotates a dev scan exactly as sharp does, both ways, small and large angles', async () => {
    const scan = openPdf(readFileSync(new URL('invoice-005.pdf', devFixtures))).loadPage(0);
    const r = renderPage(scan, pageImageDpi(scan) ?? 200);
    const img: GrayImage = { data: r.gray, width: r.width, height: r.height };
    for (const angle of [0.15, -1.9, 3.35, -4.95]) {
      const want = await sharpRotation(img, angle);
      const got = rotateGray(img, angle);
      expect(differing(got.image.data, want.crop)).toBe(0);
      expect([...got.histogram]).toEqual([...want.histogram]);
      expect([...got.cropHistogram]).toEqual([...greyHistogram(want.crop)]);
    }
  });

  it('matches sharp at the edges of a small noisy image', async () => {
    let seed = 3;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const img: GrayImage = { data: new Uint8Array(37 * 23), width: 37, height: 23 };
    for (let i = 0; i < img.data.length; i++) img.data[i] = Math.floor(random() * 256);
    for (const angle of [0.7, -2.3, 4.1]) {
      const want = await sharpRotation(img, angle);
      const got = rotateGray(img, angle);
      expect(differing(got.image.data, want.crop)).toBe(0);
      expect([...got.histogram]).toEqual([...want.histogram]);
    }
  });
});
