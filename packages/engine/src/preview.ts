import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { detectImageKind, estimateDpi, MAX_IMAGE_PIXELS } from './image/load.ts';
import { openPdf } from './pdf/text.ts';
import { sniffType } from './sniff.ts';

/**
 * Pages of a document as a person sees them, in the frame the engine's boxes use: a review screen
 * draws a field's `provenance.bbox` (PDF points from the page's top-left) over the picture.
 */

/** A page's size in PDF points: the frame of its boxes. */
export interface PageFrame {
  /** Width in points. */
  width: number;
  /** Height in points. */
  height: number;
}

/** One page drawn for the screen. */
export interface PagePreview extends PageFrame {
  /** PNG (colour) of the page. */
  png: Uint8Array;
  /** Width of the picture in pixels. */
  pixelWidth: number;
  /** Height of the picture in pixels. */
  pixelHeight: number;
}

/** Largest picture width drawn; wider asks are cut to it (a 1600 px page is sharp at 2× zoom on a laptop). */
export const MAX_PREVIEW_WIDTH = 2400;

/** Thrown when the bytes are not a PDF or image the engine reads (`unreadable`), or the page does not exist. */
export class PreviewError extends Error {
  readonly code: 'unreadable' | 'no_page';
  constructor(code: 'unreadable' | 'no_page', message: string) {
    super(message);
    this.name = 'PreviewError';
    this.code = code;
  }
}

/** The frames of every page (PDF points; for images, pixels at the resolution the engine read them at). */
export async function listPageFrames(bytes: Uint8Array): Promise<PageFrame[]> {
  const kind = sniffType(bytes);
  if (kind === 'pdf') {
    const doc = openPreviewPdf(bytes);
    try {
      const frames: PageFrame[] = [];
      for (let i = 0; i < doc.countPages(); i++) frames.push(pdfFrame(doc.loadPage(i)));
      return frames;
    } finally {
      doc.destroy();
    }
  }
  const pages = await readImagePages(bytes);
  return pages.map((p) => p.frame);
}

/**
 * Draw page `pageNumber` (1-based) at `width` pixels (at most {@link MAX_PREVIEW_WIDTH}, never
 * wider than an image's own pixels).
 */
export async function renderPagePreview(
  bytes: Uint8Array,
  pageNumber: number,
  width: number,
): Promise<PagePreview> {
  const want = Math.max(100, Math.min(MAX_PREVIEW_WIDTH, Math.round(width)));
  const kind = sniffType(bytes);
  if (kind === 'pdf') {
    const doc = openPreviewPdf(bytes);
    try {
      if (pageNumber < 1 || pageNumber > doc.countPages())
        throw new PreviewError('no_page', `no page ${pageNumber}`);
      const page = doc.loadPage(pageNumber - 1);
      const frame = pdfFrame(page);
      // A long strip (a till roll) is drawn narrower rather than taller than MAX_PREVIEW_HEIGHT.
      const scale = Math.min(want / frame.width, MAX_PREVIEW_HEIGHT / frame.height);
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
      try {
        return {
          ...frame,
          png: pixmap.asPNG(),
          pixelWidth: pixmap.getWidth(),
          pixelHeight: pixmap.getHeight(),
        };
      } finally {
        pixmap.destroy();
      }
    } finally {
      doc.destroy();
    }
  }
  const pages = await readImagePages(bytes);
  const page = pages[pageNumber - 1];
  if (!page) throw new PreviewError('no_page', `no page ${pageNumber}`);
  const { data, info } = await sharp(Buffer.from(bytes), {
    limitInputPixels: MAX_IMAGE_PIXELS,
    autoOrient: true,
    page: pageNumber - 1,
    pages: 1,
    failOn: 'error',
  })
    .flatten({ background: '#ffffff' })
    .resize({ width: Math.min(want, page.pixelWidth), withoutEnlargement: true })
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return {
    ...page.frame,
    png: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    pixelWidth: info.width,
    pixelHeight: info.height,
  };
}

/** Tallest picture drawn, in pixels. */
const MAX_PREVIEW_HEIGHT = 6000;

function openPreviewPdf(bytes: Uint8Array): mupdf.Document {
  let doc: mupdf.Document;
  try {
    doc = openPdf(bytes);
  } catch {
    throw new PreviewError('unreadable', 'the PDF cannot be read');
  }
  if (doc.needsPassword()) {
    doc.destroy();
    throw new PreviewError('unreadable', 'the PDF is password-protected');
  }
  return doc;
}

function pdfFrame(page: mupdf.Page): PageFrame {
  const [x0, y0, x1, y1] = page.getBounds();
  return { width: x1 - x0, height: y1 - y0 };
}

/**
 * An image's pages, upright, with the frame the engine's OCR boxes are in: pixels × 72 / the
 * resolution `loadImagePages` gives (the same estimate, from the same header).
 */
async function readImagePages(
  bytes: Uint8Array,
): Promise<Array<{ frame: PageFrame; pixelWidth: number; pixelHeight: number }>> {
  const kind = detectImageKind(bytes);
  if (!kind) throw new PreviewError('unreadable', 'not a PDF or an image');
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_IMAGE_PIXELS)
    throw new PreviewError('unreadable', 'the image cannot be drawn');
  // As the engine reads them: a TIFF's frames are pages; other formats have one (a GIF's first frame).
  const count = kind === 'tiff' ? (meta.pages ?? 1) : 1;
  const out: Array<{ frame: PageFrame; pixelWidth: number; pixelHeight: number }> = [];
  for (let page = 0; page < count; page++) {
    const m = page === 0 ? meta : await sharp(input, { page, limitInputPixels: false }).metadata();
    // EXIF orientations 5–8 turn the picture a quarter: width and height swap once upright.
    const turned = (m.orientation ?? 1) >= 5;
    const w = (turned ? m.height : m.width) ?? 0;
    const h = (turned ? m.width : m.height) ?? 0;
    const dpi = estimateDpi(w, h, m.density ?? meta.density);
    out.push({ frame: { width: (w * 72) / dpi, height: (h * 72) / dpi }, pixelWidth: w, pixelHeight: h });
  }
  return out;
}
