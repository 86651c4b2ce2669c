// Dev tools only: an OCR provider that remembers Tesseract's words per page image on disk, so
// re-running a dev script over the same scans skips OCR (seconds a page) after the first time.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OcrProvider } from '../src/types.ts';

/** Where the dev tools share their OCR cache. */
export const DEV_OCR_CACHE_DIR = '/tmp/bahi-ocr-cache';

/**
 * The real Tesseract provider behind a disk cache keyed by the image's sha1; Tesseract starts only on
 * the first miss. With `cachedOnly`, a miss throws instead of running OCR.
 */
export function createCachedOcr(
  options: {
    dir?: string;
    cachedOnly?: boolean;
    provider?: 'tesseract' | 'paddle' | 'native' | 'native-fast';
    preprocess?: OcrProvider['preprocess'];
    /** PaddleOCR options to try (`dev-fast.ts --paddle '{"detLayout":"strips"}'`); give a cache dir of their own. */
    paddle?: import('../src/ocr/paddle-options.ts').PaddleOcrOptions;
  } = {},
): OcrProvider {
  const provider = options.provider ?? 'tesseract';
  const dir =
    options.dir ?? (provider === 'tesseract' ? DEV_OCR_CACHE_DIR : `${DEV_OCR_CACHE_DIR}-${provider}`);
  mkdirSync(dir, { recursive: true });
  let real: Promise<OcrProvider> | null = null;
  return {
    preprocess: options.preprocess,
    async recognize(image, o) {
      const file = join(dir, `${createHash('sha1').update(image).digest('hex')}.json`);
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
      if (options.cachedOnly) throw new Error('not cached');
      real ??=
        provider === 'tesseract'
          ? import('../src/ocr/index.ts').then((m) => m.createTesseractOcr())
          : provider === 'paddle' && options.paddle
            ? import('../src/ocr/paddle.ts').then((m) => m.createPaddleOcr(options.paddle))
            : import('../src/ocr/providers.ts').then((m) => m.createOcr(provider));
      const words = await (await real).recognize(image, o);
      writeFileSync(file, JSON.stringify(words));
      return words;
    },
    async close() {
      if (real) await (await real).close();
    },
  };
}
