import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { hasNativeTesseract } from './native-program.ts';
import { createNativeTesseractOcr, unpackEnglishModel } from './native-tesseract.ts';
import { encodePgm } from './page.ts';
import { assertOcrProviderAvailable } from './providers.ts';

// CI installs Debian's tesseract-ocr (.ci/run); a machine without it skips the reading tests only.
const native = hasNativeTesseract();
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'bahi-tessdata-test-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/** A grey page image with two lines of print, as `ocrPageImage` hands it to providers. */
async function printedPage(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300">
    <rect width="100%" height="100%" fill="white"/>
    <g font-family="sans-serif" font-size="36" fill="black">
      <text x="60" y="110">Invoice No 4471 dated 12-03-2025</text>
      <text x="60" y="190">Total Payable 17,700.00</text>
    </g></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return encodePgm({ data: new Uint8Array(data), width: info.width, height: info.height });
}

describe('native tesseract provider', () => {
  it('unpacks the npm model once and reuses it', () => {
    const dir = unpackEnglishModel(cacheDir);
    expect(readdirSync(dir)).toEqual(['eng.traineddata']);
    expect(unpackEnglishModel(cacheDir)).toBe(dir);
  });

  it('stops a process configured for it at start-up when the program is missing', () => {
    const missing = () => false;
    expect(() => assertOcrProviderAvailable('native', missing)).toThrow(
      /OCR_PROVIDER=native needs the tesseract program.*apt-get install tesseract-ocr/,
    );
    expect(() => assertOcrProviderAvailable('native-fast', missing)).toThrow(/not installed/);
    // The default and the WASM provider need no program.
    expect(() => assertOcrProviderAvailable('paddle', missing)).not.toThrow();
    expect(() => assertOcrProviderAvailable('tesseract', missing)).not.toThrow();
  });

  it('says plainly when the program is not installed', async () => {
    await expect(createNativeTesseractOcr({ command: 'bahi-no-such-ocr-program', cacheDir })).rejects.toThrow(
      /not installed.*apt-get install tesseract-ocr/,
    );
  });

  it.runIf(native)('reads words with their boxes and confidences', async () => {
    const ocr = await createNativeTesseractOcr({ workers: 1, cacheDir });
    try {
      const words = await ocr.recognize(await printedPage(), { dpi: 300 });
      const find = (text: string) => words.find((w) => w.text === text);
      for (const text of ['Invoice', '4471', '12-03-2025', 'Payable', '17,700.00'])
        expect(find(text), text).toBeDefined();
      const total = find('Total');
      // Second line, left edge at the print's x = 60 px, in image pixels.
      expect(total?.x0).toBeGreaterThan(50);
      expect(total?.x0).toBeLessThan(75);
      expect(total?.y0).toBeGreaterThan(140);
      expect(total?.conf).toBeGreaterThan(0.8);
    } finally {
      await ocr.close();
    }
  });

  it.runIf(native)('stops a page when its document is abandoned and refuses work once closed', async () => {
    const ocr = await createNativeTesseractOcr({ workers: 1, cacheDir });
    const controller = new AbortController();
    const page = ocr.recognize(await printedPage(), { signal: controller.signal });
    controller.abort(new Error('document timed out'));
    await expect(page).rejects.toThrow('document timed out');
    await ocr.close();
    await expect(ocr.recognize(await printedPage())).rejects.toThrow(/closed/);
  });

  it.runIf(native)('refuses pages still waiting for a process when it closes', async () => {
    const ocr = await createNativeTesseractOcr({ workers: 1, cacheDir });
    const page = await printedPage();
    const first = ocr.recognize(page);
    const waiting = ocr.recognize(page);
    await ocr.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(first).rejects.toThrow();
  });

  it.runIf(native)('turns a failing run into an error, not an empty page', async () => {
    const ocr = await createNativeTesseractOcr({ workers: 1, cacheDir });
    try {
      await expect(ocr.recognize(new Uint8Array([1, 2, 3, 4]))).rejects.toThrow(/tesseract exited/);
    } finally {
      await ocr.close();
    }
  });
});
