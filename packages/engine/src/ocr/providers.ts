import type { OcrProvider } from '../types.ts';

/** The OCR engines Bahi can read scans with. */
export const OCR_PROVIDERS = ['paddle', 'tesseract'] as const;

/** Name of an OCR engine. */
export type OcrProviderName = (typeof OCR_PROVIDERS)[number];

/**
 * The default: PP-OCRv4 read the real scans and photos better than Tesseract did (bake-off table in
 * packages/engine/README.md).
 */
export const DEFAULT_OCR_PROVIDER: OcrProviderName = 'paddle';

/**
 * Create an OCR provider by name. `workers` is how many pages may be recognised at once: Tesseract
 * runs that many WASM workers, PP-OCR gives one inference that many threads.
 */
export async function createOcr(
  name: OcrProviderName = DEFAULT_OCR_PROVIDER,
  options: { workers?: number } = {},
): Promise<OcrProvider> {
  if (name === 'tesseract')
    return (await import('./index.ts')).createTesseractOcr({ workers: options.workers });
  return (await import('./paddle.ts')).createPaddleOcr({ threads: options.workers });
}
