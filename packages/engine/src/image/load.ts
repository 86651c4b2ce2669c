import sharp, { type Metadata } from 'sharp';

/** Why an image could not be loaded; the pipeline maps these onto extraction/v1 error codes. */
export type ImageLoadErrorCode = 'unreadable_file' | 'too_large' | 'unsupported_type';

/** A typed failure of {@link loadImagePages}. */
export class ImageLoadError extends Error {
  /** Contract error code this failure maps to. */
  readonly code: ImageLoadErrorCode;

  /** Create an error with its contract code and a human-readable message. */
  constructor(code: ImageLoadErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageLoadError';
    this.code = code;
  }
}

/** One page of an image document, ready for OCR. */
export interface ImagePage {
  /** Greyscale PNG, upright (EXIF orientation applied). */
  png: Uint8Array;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Resolution: from the file when plausible, otherwise estimated from the pixel size. */
  dpi: number;
  /** The same pixels as raw 8-bit grey, row-major, `width * height` bytes. */
  gray: Uint8Array;
}

/** Image formats we accept, by magic bytes. SVG and PDF are deliberately absent (not raster scans). */
export type ImageKind = 'png' | 'jpeg' | 'tiff' | 'webp' | 'gif';

/**
 * Largest image we decode, in pixels. 100 MP is above any phone camera or 600 dpi A3 scan,
 * and bounds memory (one grey copy is 100 MB) against decompression bombs whose headers
 * declare huge dimensions.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** A multi-page TIFF of more pages is refused (too_large) before any is decoded; more is not a business document. */
export const MAX_IMAGE_PAGES = 200;

/** Sniff the image format from its first bytes; null when it is not a raster format we read. */
export function detectImageKind(bytes: Uint8Array): ImageKind | null {
  const b = bytes;
  if (b.length < 12) return null;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (
    (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a)
  )
    return 'tiff';
  if (
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return 'webp';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'gif';
  return null;
}

/** A4 is 8.27 × 11.69 inches; a thermal till roll is 80 mm (3.15 in) wide. */
const A4_WIDTH_IN = 8.27;
const A4_HEIGHT_IN = 11.69;
const RECEIPT_WIDTH_IN = 3.15;

/**
 * Pick a resolution for an image. A density in the file is trusted only when it yields a
 * plausible paper size: cameras and screenshots write 72 or 96 dpi that mean nothing.
 * Otherwise assume the image spans the width of the paper — A4, or a till roll when the
 * image is much taller than wide — which is right for scans and close enough for photos.
 */
export function estimateDpi(width: number, height: number, density: number | undefined): number {
  if (density && density >= 100 && density <= 1200) {
    const wIn = width / density;
    const hIn = height / density;
    const shortIn = Math.min(wIn, hIn);
    const longIn = Math.max(wIn, hIn);
    if (shortIn >= 2 && shortIn <= 13 && longIn >= 3 && longIn <= 40) return Math.round(density);
  }
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  // A till roll is typically 3× or more as long as it is wide; A4 is 1.41.
  const paperShortIn = long / short > 2.2 ? RECEIPT_WIDTH_IN : A4_WIDTH_IN;
  let dpi = short / paperShortIn;
  // An A4 landscape photo of a portrait page: the long side bounds the page height instead.
  if (paperShortIn === A4_WIDTH_IN) dpi = Math.min(dpi, long / (A4_HEIGHT_IN * 0.9));
  return Math.max(50, Math.min(1200, Math.round(dpi)));
}

/**
 * Decode an image document into upright greyscale pages: PNG, JPEG (EXIF orientation applied),
 * TIFF (every page), WebP and GIF (first frame). Throws {@link ImageLoadError}.
 */
export async function loadImagePages(bytes: Uint8Array, maxPages = MAX_IMAGE_PAGES): Promise<ImagePage[]> {
  const kind = detectImageKind(bytes);
  if (!kind) throw new ImageLoadError('unsupported_type', 'not a PNG, JPEG, TIFF, WebP or GIF image');
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let meta: Metadata;
  try {
    // Header only: no pixel is inflated here, so the size is checked below with a plain message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw toLoadError(err, kind);
  }
  if (!meta.width || !meta.height)
    throw new ImageLoadError('unreadable_file', `${kind} image has no dimensions`);
  // Check the declared size ourselves: metadata() reads only the header, so a bomb stops here
  // before a single pixel is inflated.
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new ImageLoadError(
      'too_large',
      `image is too large to read (${meta.width} × ${meta.height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`,
    );
  }
  const pageCount = kind === 'tiff' ? (meta.pages ?? 1) : 1;
  // Counted from the header before any page is decoded, and reported as the file has it.
  if (pageCount > maxPages) throw new ImageLoadError('too_large', `${pageCount} pages (limit ${maxPages})`);
  const pages: ImagePage[] = [];
  for (let page = 0; page < pageCount; page++) {
    pages.push(await decodePage(input, kind, page, meta.density));
  }
  return pages;
}

async function decodePage(
  input: Buffer,
  kind: ImageKind,
  page: number,
  fileDensity: number | undefined,
): Promise<ImagePage> {
  try {
    const img = sharp(input, {
      limitInputPixels: MAX_IMAGE_PIXELS,
      autoOrient: true,
      page,
      pages: 1,
      // Truncated JPEGs from phones and scanners are common; keep what decodes rather than fail.
      failOn: 'error',
    });
    let density = fileDensity;
    if (kind === 'tiff' && page > 0) density = (await img.metadata()).density ?? fileDensity;
    // Flatten transparency onto white (a transparent PNG background would otherwise turn black).
    const { data, info } = await img
      .flatten({ background: '#ffffff' })
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const gray = new Uint8Array(data.buffer, data.byteOffset, info.width * info.height);
    const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    return {
      png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength),
      width: info.width,
      height: info.height,
      dpi: estimateDpi(info.width, info.height, density),
      gray,
    };
  } catch (err) {
    throw toLoadError(err, kind);
  }
}

function toLoadError(err: unknown, kind: ImageKind): ImageLoadError {
  if (err instanceof ImageLoadError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit|exceeds|too large/i.test(message))
    return new ImageLoadError('too_large', message, { cause: err });
  return new ImageLoadError('unreadable_file', `cannot decode ${kind} image: ${message}`, { cause: err });
}
