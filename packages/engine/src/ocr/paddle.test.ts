import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { pageImageDpi, renderPage } from '../pdf/render.ts';
import { openPdf, readPageWords } from '../pdf/text.ts';
import type { OcrWord } from './index.ts';
import { createPaddleOcr, decodePgm, type LineBox, type PaddleOcrProvider } from './paddle.ts';
import { inkedArea } from './paddle-detect.ts';
import { recBatches } from './paddle-recognise.ts';
import { encodePgm, type GrayImage, ocrPageImage, preprocessPage } from './page.ts';
import { splitWords } from './split-words.ts';

const page = openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0);

describe('recBatches', () => {
  it('batches short lines of the same padded width, up to eight, and reads every other line alone', () => {
    const widths = [30, 31, 32, 33, ...Array.from({ length: 10 }, () => 90), 200, 200, 201];
    const got = recBatches(widths.map((width) => ({ width }))).map((b) => b.map((it) => it.width));
    expect(got).toEqual([
      [30, 31, 32],
      [33],
      [90, 90, 90, 90, 90, 90, 90, 90],
      [90, 90],
      [200],
      [200],
      [201],
    ]);
  });
});

describe('inkedArea', () => {
  it('is the bounding box of the print grown by two strides of paper, aligned to the stride', () => {
    const W = 640;
    const H = 960;
    const pixels = new Uint8Array(W * H).fill(255);
    // Print from (150, 200) to (409, 599) inclusive, one grey pixel lighter than the level.
    for (let y = 200; y < 600; y++) pixels.fill(40, y * W + 150, y * W + 410);
    pixels[700 * W + 500] = 128;
    expect(inkedArea(pixels, W, H, 128)).toEqual({ x: 64, y: 128, w: 416, h: 544 });
  });

  it('is the whole image on blank paper, and never leaves it', () => {
    const blank = new Uint8Array(320 * 256).fill(255);
    expect(inkedArea(blank, 320, 256, 128)).toEqual({ x: 0, y: 0, w: 320, h: 256 });
    blank[0] = 0;
    blank[320 * 256 - 1] = 0;
    expect(inkedArea(blank, 320, 256, 128)).toEqual({ x: 0, y: 0, w: 320, h: 256 });
  });
});

/** A white line crop with black bars standing for glyphs at the given [x0, x1) columns. */
function bars(width: number, height: number, spans: Array<[number, number]>): GrayImage {
  const data = new Uint8Array(width * height).fill(255);
  for (const [x0, x1] of spans)
    for (let y = Math.floor(height * 0.3); y < Math.ceil(height * 0.7); y++)
      data.fill(0, y * width + x0, y * width + x1);
  return { data, width, height };
}

describe('splitWords', () => {
  // Glyphs 8 px wide on a 12 px pitch (4 px letter gaps); one CTC step per 12 px, firing at the glyph's centre.
  const glyph = (ch: string, i: number) => ({ ch, t: i, p: 0.9 });

  it('cuts at a wide blank gap and keeps letters a narrow gap apart together', () => {
    // "AB CD": the gap between B and C is 12 px wider (a space).
    const spans: Array<[number, number]> = [
      [2, 10],
      [14, 22],
      [38, 46],
      [50, 58],
    ];
    const chars = [glyph('A', 0), glyph('B', 1), glyph('C', 3), glyph('D', 4)];
    const words = splitWords(bars(64, 30, spans), chars, 12, 0.42);
    expect(words.map((w) => w.text)).toEqual(['AB', 'CD']);
    // Each word's box is its own ink, in crop pixels.
    expect(words[0]).toMatchObject({ x0: 2, x1: 22 });
    expect(words[1]).toMatchObject({ x0: 38, x1: 58 });
    expect(words[0]?.conf).toBeCloseTo(0.9);
  });

  it('does not split a number at the wide margins of a tabular "1"', () => {
    // "1043" with the 1 drawn thin in its cell: 7 px blank before the 0, not a space.
    const spans: Array<[number, number]> = [
      [5, 8],
      [15, 23],
      [27, 35],
      [39, 47],
    ];
    const chars = [glyph('1', 0), glyph('0', 1), glyph('4', 2), glyph('3', 3)];
    expect(splitWords(bars(52, 30, spans), chars, 12, 0.42).map((w) => w.text)).toEqual(['1043']);
  });

  it('keeps a decimal point with its digits', () => {
    // "2.5": the point sits alone in a full-width cell, 6 px from each digit.
    const spans: Array<[number, number]> = [
      [2, 10],
      [16, 18],
      [24, 32],
    ];
    const chars = [glyph('2', 0), glyph('.', 1), glyph('5', 2)];
    expect(splitWords(bars(36, 30, spans), chars, 11, 0.42).map((w) => w.text)).toEqual(['2.5']);
  });

  it('drops characters of scripts an English document does not use', () => {
    const spans: Array<[number, number]> = [
      [2, 10],
      [14, 22],
    ];
    const chars = [glyph('A', 0), glyph('的', 1)];
    expect(splitWords(bars(26, 30, spans), chars, 12, 0.42).map((w) => w.text)).toEqual(['A']);
  });
});

describe('decodePgm', () => {
  it('reads a binary PGM and refuses anything else', () => {
    const img: GrayImage = { data: new Uint8Array([0, 128, 255, 7, 8, 9]), width: 3, height: 2 };
    expect(decodePgm(encodePgm(img))).toEqual(img);
    expect(decodePgm(new TextEncoder().encode('P5\n3 2\n255\n\u0000'))).toBeNull();
    expect(decodePgm(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });
});

describe('createPaddleOcr', () => {
  let ocr: PaddleOcrProvider;
  beforeAll(async () => {
    ocr = await createPaddleOcr({ threads: 1 });
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reads a rendered page strip into words at their text-layer places', async () => {
    const dpi = 200;
    const r = renderPage(page, dpi);
    const h = Math.round(r.height * 0.25);
    const result = await ocrPageImage(ocr, r.gray.subarray(0, r.width * h), {
      pageNumber: 2,
      dpi,
      raw: { width: r.width, height: h },
    });
    const truth = readPageWords(page, 1).words.filter((w) => w.y1 < (h * 72) / dpi - 10);
    for (const text of ['22GVLCV3394Y3ZP', 'INVOICE', 'Chhattisgarh', 'Engineering']) {
      const want = truth.find((w) => w.text === text);
      const got = result.words.find((w) => w.text.includes(text));
      expect(want, `text layer has ${text}`).toBeDefined();
      expect(got, `OCR found ${text}`).toBeDefined();
      if (!want || !got) continue;
      expect(got).toMatchObject({ page: 2, source: 'ocr' });
      expect(got.conf).toBeGreaterThan(0.5);
      expect(Math.abs((got.x0 + got.x1) / 2 - (want.x0 + want.x1) / 2)).toBeLessThan(6);
      expect(Math.abs((got.y0 + got.y1) / 2 - (want.y0 + want.y1) / 2)).toBeLessThan(4);
    }
    // Words, not whole lines: most text-layer words come back verbatim.
    const ocrTexts = new Set(result.words.map((w) => w.text));
    expect(truth.filter((w) => ocrTexts.has(w.text)).length / truth.length).toBeGreaterThan(0.7);
  });

  it('reads slanted lines (a receipt held askew) and puts their words where they stand', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="500">
      <rect width="100%" height="100%" fill="white"/>
      <g transform="rotate(3 700 250)" font-family="sans-serif" font-size="34" fill="black">
        <text x="80" y="200">Plot 17, Industrial Estate Road, Hosur 635109</text>
        <text x="80" y="260">GSTIN 33AAACB1234C1Z5 Invoice No 4471</text>
      </g></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const words = await ocr.recognize(new Uint8Array(png));
    const find = (text: string) => words.find((w) => w.text === text);
    for (const text of ['Plot', 'Hosur', '635109', '33AAACB1234C1Z5', '4471'])
      expect(find(text), text).toBeDefined();
    // The first line falls to the right: its last word stands lower than its first, by about
    // tan 3° of the distance between them, and above the second line's words.
    const plot = find('Plot') as OcrWord;
    const hosur = find('Hosur') as OcrWord;
    const mid = (w: OcrWord) => [(w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2] as const;
    const drop = mid(hosur)[1] - mid(plot)[1];
    expect(drop).toBeGreaterThan(0.6 * Math.tan((3 * Math.PI) / 180) * (mid(hosur)[0] - mid(plot)[0]));
    expect(drop).toBeLessThan(1.4 * Math.tan((3 * Math.PI) / 180) * (mid(hosur)[0] - mid(plot)[0]));
    expect(mid(find('4471') as OcrWord)[1]).toBeGreaterThan(mid(hosur)[1]);
  });

  it('answers an abandoned page at once, even while it waits behind another', async () => {
    const page = encodePgm({ data: new Uint8Array(400 * 200).fill(255), width: 400, height: 200 });
    const first = ocr.recognize(page);
    const controller = new AbortController();
    const second = ocr.recognize(page, { signal: controller.signal });
    controller.abort(new Error('document timed out'));
    await expect(second).rejects.toThrow('document timed out');
    await expect(first).resolves.toEqual([]);
  });

  it('finds the same lines in full-width strips (the default) as in square tiles on the dev scans', async () => {
    const tiles = await createPaddleOcr({ threads: 1, detLayout: 'tiles' });
    const iou = (a: LineBox, b: LineBox) => {
      const w = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
      const h = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
      const area = (r: LineBox) => (r.x1 - r.x0) * (r.y1 - r.y0);
      return (w * h) / (area(a) + area(b) - w * h);
    };
    const matched = (from: LineBox[], to: LineBox[]) =>
      from.filter((a) => to.some((b) => iou(a, b) >= 0.7)).length / from.length;
    try {
      for (const name of ['invoice-005.pdf', 'invoice-007.pdf', 'invoice-027.pdf']) {
        const scan = openPdf(readFileSync(new URL(name, devFixtures))).loadPage(0);
        const dpi = pageImageDpi(scan) ?? 200;
        const r = renderPage(scan, dpi);
        const pre = await preprocessPage({ data: r.gray, width: r.width, height: r.height }, dpi);
        // Pages larger than one tile, so the tiled detector reads several.
        expect(Math.max(pre.image.width, pre.image.height)).toBeGreaterThan(1024);
        const image = encodePgm(pre.image);
        const [strips, tiled] = [await ocr.detect(image), await tiles.detect(image)];
        expect(strips.length, name).toBeGreaterThan(30);
        // The network's squeeze-and-excite blocks see the whole tile or strip, so a box may move by
        // a pixel or two; the same lines must still be found.
        expect(Math.abs(strips.length - tiled.length)).toBeLessThanOrEqual(0.05 * tiled.length);
        expect(matched(tiled, strips), name).toBeGreaterThan(0.9);
        expect(matched(strips, tiled), name).toBeGreaterThan(0.9);
      }
    } finally {
      await tiles.close();
    }
  }, 180_000);

  it('skips tiles and strips of paper only and finds the same lines as reading all of them', async () => {
    const page = async (lines: string) =>
      new Uint8Array(
        await sharp(
          Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1376" height="1920">
            <rect width="100%" height="100%" fill="white"/>
            <g font-family="sans-serif" font-size="30" fill="black">${lines}</g></svg>`),
        )
          .png()
          .toBuffer(),
      );
    const top =
      '<text x="60" y="120">Sahyadri Pumps Pvt Ltd</text><text x="60" y="170">Invoice No 4471</text>';
    // Strips (0–1024, 896–1920): print in the upper one only. Tiles: in the top-left and bottom-right.
    const cases = [
      { layout: 'strips' as const, image: await page(top), lines: 2 },
      {
        layout: 'tiles' as const,
        image: await page(`${top}<text x="900" y="1800">Total 18,450.00</text>`),
        lines: 3,
      },
    ];
    for (const c of cases) {
      // Every tile or strip of the page, not just its inked area (tested below).
      const [skipping, reading] = await Promise.all([
        createPaddleOcr({ threads: 1, detLayout: c.layout, detInkedArea: false }),
        createPaddleOcr({ threads: 1, detLayout: c.layout, detBlankLevel: 0 }),
      ]);
      try {
        const found = await skipping.detect(c.image);
        expect(found.length, c.layout).toBe(c.lines);
        expect(found).toEqual(await reading.detect(c.image));
      } finally {
        await Promise.all([skipping.close(), reading.close()]);
      }
    }
  }, 180_000);

  it('finds the same lines reading only the inked area as reading the whole page (the default)', async () => {
    const inkedOnly = await createPaddleOcr({ threads: 1, detInkedArea: true });
    const same = (a: LineBox, b: LineBox) =>
      Math.max(Math.abs(a.x0 - b.x0), Math.abs(a.x1 - b.x1), Math.abs(a.y0 - b.y0), Math.abs(a.y1 - b.y1)) <=
      3;
    try {
      for (const name of ['invoice-005.pdf', 'invoice-007.pdf', 'grn-010.pdf']) {
        const scan = openPdf(readFileSync(new URL(name, devFixtures))).loadPage(0);
        const dpi = pageImageDpi(scan) ?? 200;
        const r = renderPage(scan, dpi);
        const pre = await preprocessPage({ data: r.gray, width: r.width, height: r.height }, dpi);
        const image = encodePgm(pre.image);
        const [inked, all] = [await inkedOnly.detect(image), await ocr.detect(image)];
        expect(all.length, name).toBeGreaterThan(20);
        // The network's squeeze-and-excite blocks see the whole strip, so a box may move by a pixel.
        expect(inked.filter((a) => all.some((b) => same(a, b))).length, name).toBeGreaterThan(
          0.97 * inked.length,
        );
        expect(all.filter((a) => inked.some((b) => same(a, b))).length, name).toBeGreaterThan(
          0.97 * all.length,
        );
      }
    } finally {
      await inkedOnly.close();
    }
  }, 180_000);

  it('refuses work once closed', async () => {
    const other = await createPaddleOcr({ threads: 1 });
    await other.close();
    await expect(
      other.recognize(encodePgm({ data: new Uint8Array(4).fill(255), width: 2, height: 2 })),
    ).rejects.toThrow(/closed/);
  });
});
