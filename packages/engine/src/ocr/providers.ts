import type { OcrProvider } from '../types.ts';
import { hasNativeTesseract } from './native-program.ts';

/** The OCR engines Bahi can read scans with. */
export const OCR_PROVIDERS = ['paddle', 'tesseract', 'native', 'native-fast'] as const;

/** Name of an OCR engine. */
export type OcrProviderName = (typeof OCR_PROVIDERS)[number];

/**
 * The default: PP-OCRv4 read the real scans and photos better than Tesseract did (bake-off table in
 * packages/engine/README.md).
 */
export const DEFAULT_OCR_PROVIDER: OcrProviderName = 'paddle';

/**
 * Throws a clear error when the named provider needs a program this machine lacks (`native` and
 * `native-fast` run Debian's `tesseract`), so a process configured for it stops at start-up instead of
 * failing every scanned document later. `hasProgram` is for tests.
 */
export function assertOcrProviderAvailable(name: OcrProviderName, hasProgram = hasNativeTesseract): void {
  if ((name === 'native' || name === 'native-fast') && !hasProgram())
    throw new Error(
      `OCR_PROVIDER=${name} needs the tesseract program, which is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-eng); or choose paddle or tesseract`,
    );
}

/**
 * Create an OCR provider by name. `workers` is how many pages may be recognised at once: Tesseract
 * runs that many WASM workers or native processes, PP-OCR gives one inference that many threads.
 * `native` is Debian's tesseract program with the npm `best_int` model (tesseract.js's words at
 * half its memory), `native-fast` the same program with the model the Debian package installed.
 */
export async function createOcr(
  name: OcrProviderName = DEFAULT_OCR_PROVIDER,
  options: { workers?: number } = {},
): Promise<OcrProvider> {
  switch (name) {
    case 'tesseract':
      return (await import('./index.ts')).createTesseractOcr({ workers: options.workers });
    case 'native':
    case 'native-fast':
      return (await import('./native-tesseract.ts')).createNativeTesseractOcr({
        workers: options.workers,
        model: name === 'native' ? 'best_int' : 'system',
      });
    default:
      return (await import('./paddle.ts')).createPaddleOcr({ threads: options.workers });
  }
}
