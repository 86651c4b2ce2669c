import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { pageImageDpi, renderPage } from '../pdf/render.ts';
import { openPdf, readPageWords } from '../pdf/text.ts';
import { createTesseractOcr, parseTsvWords, type TesseractOcrProvider } from './index.ts';
import {
  applyTable,
  estimateSkewAngle,
  type GrayImage,
  greyHistogram,
  invertDarkBands,
  normaliseTable,
  ocrPageImage,
  preprocessPage,
  sparsePageStretch,
} from './page.ts';

const page = openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0);

/** Rotate grey pixels clockwise by `deg` on a white background, keeping the original size. */
async function rotateGray(img: GrayImage, deg: number): Promise<GrayImage> {
  const rotated = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .rotate(deg, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(rotated.data, {
    raw: { width: rotated.info.width, height: rotated.info.height, channels: rotated.info.channels },
  })
    .extract({
      left: Math.round((rotated.info.width - img.width) / 2),
      top: Math.round((rotated.info.height - img.height) / 2),
      width: img.width,
      height: img.height,
    })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('normaliseTable', () => {
  /** Pixels that differ between two grey buffers of one size, and by how much at most. */
  const diff = (a: Uint8Array, b: Uint8Array) => {
    expect(a.length).toBe(b.length);
    let max = 0;
    let count = 0;
    for (let i = 0; i < a.length; i++) {
      const d = Math.abs((a[i] as number) - (b[i] as number));
      if (d > 0) count++;
      max = Math.max(max, d);
    }
    return { max, count };
  };
  const normalised = async (img: GrayImage) =>
    new Uint8Array(
      await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
        .normalise()
        .grayscale()
        .raw()
        .toBuffer(),
    );
  const viaTable = async (img: GrayImage) =>
    applyTable(img.data, await normaliseTable(greyHistogram(img.data)));

  it.each(['invoice-005.pdf', 'invoice-007.pdf', 'invoice-027.pdf', 'grn-010.pdf'])(
    'stretches the dev scan %s exactly as sharp normalise() does',
    async (name) => {
      const scan = openPdf(readFileSync(new URL(name, devFixtures))).loadPage(0);
      const r = renderPage(scan, pageImageDpi(scan) ?? 200);
      const img: GrayImage = { data: r.gray, width: r.width, height: r.height };
      expect(diff(await viaTable(img), await normalised(img))).toEqual({ max: 0, count: 0 });
    },
  );

  it('follows the whole page: uneven lighting and a small block of faint print', async () => {
    const width = 1200;
    const height = 900;
    const data = new Uint8Array(width * height);
    // Paper lit from one corner (150 to 230) with a narrow block of faint print (a bit over 1 % of
    // the page), so the ink percentile falls on one small region.
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const paper = 150 + Math.round((80 * (x + y)) / (width + height));
        const ink = x > 40 && x < 160 && y > 30 && y < 130 && (x * 7 + y * 3) % 5 !== 0;
        data[y * width + x] = ink ? 95 + ((x * 31 + y * 17) % 23) : paper;
      }
    const img: GrayImage = { data, width, height };
    const table = await normaliseTable(greyHistogram(data));
    // A real stretch: the print darkens and the best-lit paper goes (nearly) white.
    expect(table[100]).toBeLessThan(60);
    expect(table[230]).toBeGreaterThan(240);
    expect(diff(await viaTable(img), await normalised(img))).toEqual({ max: 0, count: 0 });
  });

  it('leaves a flat image as normalise() does (nothing to stretch)', async () => {
    const img: GrayImage = { data: new Uint8Array(300 * 200).fill(180), width: 300, height: 200 };
    expect(diff(await viaTable(img), await normalised(img))).toEqual({ max: 0, count: 0 });
  });

  it('matches normalise() where libvips rounds the running count in floats (a 1500 × 1919 page)', async () => {
    // White paper with grey print: libvips scales this page's full count to just under 100, so the
    // stretch's light end lies past white and white comes out a little grey.
    const width = 1500;
    const height = 1919;
    const data = new Uint8Array(width * height).fill(255);
    for (let i = 0; i < data.length; i += 37) data[i] = 40 + (i % 180);
    const img: GrayImage = { data, width, height };
    const want = await normalised(img);
    expect(want[1]).toBeLessThan(255);
    expect(diff(await viaTable(img), want)).toEqual({ max: 0, count: 0 });
  });

  /** Page preparation with only the stretch, de-skew and resampling (the steps sharp's pipeline orders). */
  const prepareOnly = { clean: false, removeLines: false, invertBands: false } as const;

  it('prepares a skewed dev scan exactly as with normalise() in the rotation (which sharp runs after it)', async () => {
    const scan = openPdf(readFileSync(new URL('invoice-005.pdf', devFixtures))).loadPage(0);
    const dpi = pageImageDpi(scan) ?? 200;
    const r = renderPage(scan, dpi);
    const img: GrayImage = { data: r.gray, width: r.width, height: r.height };
    const pre = await preprocessPage(img, dpi, prepareOnly);
    expect(Math.abs(pre.angle)).toBeGreaterThan(0.5);
    expect(pre.scale).toBe(1);
    const rotated = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
      .rotate(-pre.angle, { background: { r: 255, g: 255, b: 255 } })
      .normalise()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const want = await sharp(rotated.data, {
      raw: { width: rotated.info.width, height: rotated.info.height, channels: rotated.info.channels },
    })
      .extract({
        left: Math.round((rotated.info.width - img.width) / 2),
        top: Math.round((rotated.info.height - img.height) / 2),
        width: img.width,
        height: img.height,
      })
      .grayscale()
      .raw()
      .toBuffer();
    expect(diff(pre.image.data, new Uint8Array(want))).toEqual({ max: 0, count: 0 });
  });

  it('prepares an unrotated page at its own resolution exactly as normalise() would', async () => {
    const r = renderPage(page, 200);
    const img: GrayImage = { data: r.gray, width: r.width, height: r.height };
    // A page of print: stretched by the table, with no sharp pass at all.
    expect(sparsePageStretch(img.data)).toBeNull();
    const pre = await preprocessPage(img, 200, { ...prepareOnly, maxSkew: 0 });
    expect(pre.scale).toBe(1);
    expect(pre.image.data).not.toBe(img.data);
    const want = await normalised(img);
    expect(diff(pre.image.data, want)).toEqual({ max: 0, count: 0 });
  });

  it('prepares an upscaled page exactly as with normalise() after the resize', async () => {
    const r = renderPage(page, 120);
    const img: GrayImage = { data: r.gray, width: r.width, height: r.height };
    const pre = await preprocessPage(img, 120, { ...prepareOnly, maxSkew: 0 });
    expect(pre.scale).toBeGreaterThan(1);
    const want = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
      .resize(pre.image.width, pre.image.height, { kernel: 'cubic', fit: 'fill' })
      .normalise()
      .grayscale()
      .raw()
      .toBuffer();
    expect(diff(pre.image.data, new Uint8Array(want))).toEqual({ max: 0, count: 0 });
  });
});

describe('estimateSkewAngle', () => {
  it('measures a synthetic rotation within half a degree', async () => {
    const r = renderPage(page, 100);
    const upright: GrayImage = { data: r.gray, width: r.width, height: r.height };
    expect(Math.abs(estimateSkewAngle(upright))).toBeLessThan(0.5);
    for (const deg of [1.7, -2.4]) {
      const skewed = await rotateGray(upright, deg);
      expect(Math.abs(estimateSkewAngle(skewed) - deg), `rotated ${deg}°`).toBeLessThan(0.5);
    }
  });

  it('measures a photographed page on a dark table by its print, not by the frame around it', async () => {
    const r = renderPage(page, 100);
    const skewed = await rotateGray({ data: r.gray, width: r.width, height: r.height }, -3);
    // The paper fills the middle of the photo; the table around it is dark grey.
    const margin = Math.round(r.width * 0.12);
    const width = r.width + 2 * margin;
    const height = r.height + 2 * margin;
    const photo = new Uint8Array(width * height).fill(80);
    for (let y = 0; y < r.height; y++)
      photo.set(skewed.data.subarray(y * r.width, (y + 1) * r.width), (y + margin) * width + margin);
    expect(Math.abs(estimateSkewAngle({ data: photo, width, height }) + 3)).toBeLessThan(0.5);
  });
});

describe('parseTsvWords', () => {
  it('keeps level-5 rows as words with 0..1 confidence', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '4\t1\t1\t1\t1\t0\t10\t20\t300\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t100\t30\t96.5\tGSTIN',
      '5\t1\t1\t1\t1\t2\t120\t20\t190\t30\t88\t₹1,23,456.00',
      '5\t1\t1\t1\t1\t3\t320\t20\t10\t30\t12\t ',
    ].join('\n');
    expect(parseTsvWords(tsv)).toEqual([
      { text: 'GSTIN', x0: 10, y0: 20, x1: 110, y1: 50, conf: 0.965 },
      { text: '₹1,23,456.00', x0: 120, y0: 20, x1: 310, y1: 50, conf: 0.88 },
    ]);
  });
});

describe('ocrPageImage', () => {
  let ocr: TesseractOcrProvider;
  beforeAll(async () => {
    ocr = await createTesseractOcr({ workers: 1 });
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reads a skewed rendered page strip with word boxes in page points', async () => {
    const dpi = 200;
    const r = renderPage(page, dpi);
    // The top quarter of the page (vendor block, title, invoice number), skewed by 1.2°.
    const h = Math.round(r.height * 0.25);
    const strip = await rotateGray({ data: r.gray.subarray(0, r.width * h), width: r.width, height: h }, 1.2);
    const result = await ocrPageImage(ocr, strip.data, {
      pageNumber: 3,
      dpi,
      raw: { width: strip.width, height: strip.height },
    });
    expect(result.source).toBe('ocr');
    expect(result.page).toBe(3);
    expect(result.width).toBeCloseTo((r.width * 72) / dpi, 0);
    expect(result.height).toBeCloseTo((h * 72) / dpi, 0);
    const truth = readPageWords(page, 1).words.filter((w) => w.y1 < (h * 72) / dpi - 10);
    const expected = ['22GVLCV3394Y3ZP', 'INVOICE', 'Chhattisgarh', 'Engineering'];
    for (const text of expected) {
      const want = truth.find((w) => w.text === text);
      const got = result.words.find((w) => w.text.includes(text));
      expect(want, `text layer has ${text}`).toBeDefined();
      expect(got, `OCR found ${text}`).toBeDefined();
      if (!want || !got) continue;
      expect(got.page).toBe(3);
      expect(got.source).toBe('ocr');
      expect(got.conf).toBeGreaterThan(0.5);
      // Same place as the text layer says, within a few points (de-skew resamples the page).
      expect(Math.abs((got.x0 + got.x1) / 2 - (want.x0 + want.x1) / 2)).toBeLessThan(6);
      expect(Math.abs((got.y0 + got.y1) / 2 - (want.y0 + want.y1) / 2)).toBeLessThan(4);
    }
    // Most of the strip's text-layer words are recognised verbatim.
    const ocrTexts = new Set(result.words.map((w) => w.text));
    const hits = truth.filter((w) => ocrTexts.has(w.text)).length;
    expect(hits / truth.length).toBeGreaterThan(0.7);
  });
});

describe('invertDarkBands', () => {
  const DPI = 200;
  /** A white page with rectangles filled with a grey level. */
  function page(rects: Array<[number, number, number, number, number]>): GrayImage {
    const width = 1200;
    const height = 600;
    const data = new Uint8Array(width * height).fill(250);
    for (const [x0, y0, x1, y1, v] of rects)
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = v;
    return { data, width, height };
  }
  const at = (img: GrayImage, x: number, y: number) => img.data[y * img.width + x] as number;

  it('turns white print on a dark band into dark print on light ground', () => {
    // A 2.5 in × 0.25 in band, with light "letters" (bars 3 px wide) leaving solid ground above and below.
    const letters: Array<[number, number, number, number, number]> = [];
    for (let x = 120; x < 560; x += 12) letters.push([x, 112, x + 3, 138, 245]);
    const img = page([[100, 100, 600, 150, 40], ...letters]);
    expect(invertDarkBands(img, DPI)).toBeGreaterThan(0);
    expect(at(img, 105, 125)).toBeGreaterThan(200); // the band's ground is now light
    expect(at(img, 121, 125)).toBeLessThan(20); // its print dark
  });

  it('inverts a band whose light print is thin and soft, as in a phone photo', () => {
    // A low-resolution photo blurs white type into the band: only ~2 % of the band reads light.
    const letters: Array<[number, number, number, number, number]> = [];
    for (let x = 120; x < 1060; x += 30) letters.push([x, 112, x + 1, 138, 235]);
    const img = page([[100, 100, 1100, 150, 40], ...letters]);
    expect(invertDarkBands(img, DPI)).toBeGreaterThan(0);
    expect(at(img, 105, 125)).toBeGreaterThan(200);
    expect(at(img, 120, 125)).toBeLessThan(30);
  });

  it('leaves bold black type, a ruled line and a solid bar alone', () => {
    const strokes: Array<[number, number, number, number, number]> = [];
    // A line of heavy type: dense strokes, no solid ground around them.
    for (let x = 100; x < 500; x += 8) strokes.push([x, 300, x + 6, 330, 10]);
    // A thick bar with a few light specks (dust on a scan) has no print on it either.
    const specks: Array<[number, number, number, number, number]> = [];
    for (let x = 130; x < 1000; x += 97) specks.push([x, 540, x + 2, 542, 230]);
    const img = page([
      ...strokes,
      [100, 400, 900, 403, 0],
      [100, 450, 900, 480, 0],
      [100, 520, 1000, 560, 20],
      ...specks,
    ]);
    const before = new Uint8Array(img.data);
    expect(invertDarkBands(img, DPI)).toBe(0);
    expect(img.data).toEqual(before);
  });
});

describe('sparsePageStretch', () => {
  /** A page of grainy grey paper (levels 205..235) with `inkShare` of its pixels printed at `ink`. */
  function paper(inkShare: number, ink: number): GrayImage {
    const width = 1000;
    const height = 1000;
    const data = new Uint8Array(width * height);
    let seed = 7;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      data[i] = 205 + (seed % 31);
    }
    // Print as whole rows, like lines of text.
    const rows = Math.round(inkShare * height);
    for (let y = 0; y < rows; y++)
      data.fill(ink, ((y * 7) % height) * width + 100, ((y * 7) % height) * width + 900);
    return { data, width, height };
  }

  it("leaves a page of print to sharp's own stretch", () => {
    expect(sparsePageStretch(paper(0.05, 110).data)).toBeNull();
  });

  it('leaves the grain of a sparse page light instead of stretching it into speckle', async () => {
    // A last page: a footer line or two on otherwise blank paper (0.3 % ink).
    const page = paper(0.003, 30);
    const stretch = sparsePageStretch(page.data);
    expect(stretch).not.toBeNull();
    const { gain, offset } = stretch ?? { gain: 0, offset: 0 };
    expect(gain).toBeLessThan(1.3);
    expect(205 * gain + offset).toBeGreaterThan(190);
    // Through the whole preparation, the paper comes out white: no specks for OCR to read as words.
    const pre = await preprocessPage(page, 200);
    const dark = pre.image.data.filter((v) => v < 128).length;
    expect(dark / pre.image.data.length).toBeLessThan(0.01);
  });

  it('does not amplify a blank page past a bounded gain', () => {
    const blank = paper(0, 0);
    expect(sparsePageStretch(blank.data)?.gain).toBeLessThanOrEqual(3);
  });
});
