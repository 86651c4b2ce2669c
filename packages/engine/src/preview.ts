import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { detectImageKind, estimateDpi, MAX_IMAGE_PIXELS } from './image/load.ts';
import { openPdf } from './pdf/text.ts';
import { sniffType } from './sniff.ts';
import { POINTS_PER_INCH } from './util.ts';

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

/**
 * Most drawing operations (paths, text runs, images, shades, clips) a PDF page may have for it to be drawn.
 * They are counted before any pixel is drawn: a page past this is answered with a placeholder. Real invoice
 * pages have a few hundred; a page of thousands of wide strokes can take minutes to draw.
 */
export const MAX_PAGE_DRAW_OPERATIONS = 10_000;

/**
 * Thrown when the bytes are not a PDF or image the engine reads (`unreadable`), the page does not exist
 * (`no_page`), or the page has more drawing operations than allowed (`too_costly`).
 */
export class PreviewError extends Error {
  readonly code: 'unreadable' | 'no_page' | 'too_costly';
  constructor(code: 'unreadable' | 'no_page' | 'too_costly', message: string) {
    super(message);
    this.name = 'PreviewError';
    this.code = code;
  }
}

/** The frames of every page (PDF points; for images, pixels at the resolution the engine read them at). */
export async function listPageFrames(bytes: Uint8Array): Promise<PageFrame[]> {
  return (await readPageFrames(bytes, Number.POSITIVE_INFINITY)).frames;
}

/**
 * How many pages the document has, and the frames of the first `maxPages` of them: a PDF of 100,000
 * pages is counted from its page tree without loading a page past the cap.
 */
export async function readPageFrames(
  bytes: Uint8Array,
  maxPages: number,
): Promise<{ pageCount: number; frames: PageFrame[] }> {
  const kind = sniffType(bytes);
  if (kind === 'pdf') {
    const doc = openPreviewPdf(bytes);
    try {
      const pageCount = doc.countPages();
      const frames: PageFrame[] = [];
      for (let i = 0; i < Math.min(pageCount, maxPages); i++) {
        const page = doc.loadPage(i);
        try {
          frames.push(pdfFrame(page));
        } finally {
          page.destroy();
        }
      }
      return { pageCount, frames };
    } finally {
      doc.destroy();
    }
  }
  const pages = await readImagePages(bytes);
  return { pageCount: pages.length, frames: pages.slice(0, maxPages).map((p) => p.frame) };
}

/**
 * Counts a page's drawing operations without drawing a pixel, stopping at `limit`: true when the page has
 * more. Text, paths, images, shades and clips each count one.
 */
function exceedsDrawingOperations(page: mupdf.Page, limit: number): boolean {
  let count = 0;
  const stop = new Error('too many drawing operations');
  const tick = () => {
    count++;
    if (count > limit) throw stop;
  };
  const device = new mupdf.Device({
    fillPath: tick,
    strokePath: tick,
    clipPath: tick,
    clipStrokePath: tick,
    fillText: tick,
    strokeText: tick,
    clipText: tick,
    clipStrokeText: tick,
    ignoreText: tick,
    fillShade: tick,
    fillImage: tick,
    fillImageMask: tick,
    clipImageMask: tick,
    beginGroup: tick,
    beginMask: tick,
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    return false;
  } catch (error) {
    if (error === stop || (error as Error)?.message === stop.message) return true;
    throw error;
  } finally {
    try {
      device.close();
    } catch {
      // A device stopped mid-page may refuse to close; it is dropped either way.
    }
    device.destroy();
  }
}

/** Options of {@link renderPagePreview}. */
export interface RenderPreviewOptions {
  /** Most drawing operations a PDF page may have (default {@link MAX_PAGE_DRAW_OPERATIONS}). */
  maxOperations?: number;
}

/**
 * Draw page `pageNumber` (1-based) at `width` pixels (at most {@link MAX_PREVIEW_WIDTH}, never
 * wider than an image's own pixels).
 */
export async function renderPagePreview(
  bytes: Uint8Array,
  pageNumber: number,
  width: number,
  options: RenderPreviewOptions = {},
): Promise<PagePreview> {
  const want = Math.max(MIN_PREVIEW_PX, Math.min(MAX_PREVIEW_WIDTH, Math.round(width)));
  const kind = sniffType(bytes);
  if (kind === 'pdf') {
    const doc = openPreviewPdf(bytes);
    try {
      if (pageNumber < 1 || pageNumber > doc.countPages())
        throw new PreviewError('no_page', `no page ${pageNumber}`);
      const page = doc.loadPage(pageNumber - 1);
      const frame = pdfFrame(page);
      const limit = options.maxOperations ?? MAX_PAGE_DRAW_OPERATIONS;
      if (exceedsDrawingOperations(page, limit))
        throw new PreviewError('too_costly', `the page has more than ${limit} drawing operations`);
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
    .png({ compressionLevel: PNG_COMPRESSION })
    .toBuffer({ resolveWithObject: true });
  return {
    ...page.frame,
    png: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    pixelWidth: info.width,
    pixelHeight: info.height,
  };
}

/**
 * A stand-in picture for a page that is not drawn: a grey page of the page's proportions with `sentence`
 * in its middle (sharp renders the SVG on libuv's thread pool, off the caller's event loop).
 */
export async function renderPagePlaceholder(
  frame: PageFrame,
  width: number,
  sentence: string,
): Promise<PagePreview> {
  const pixelWidth = Math.max(MIN_PREVIEW_PX, Math.min(MAX_PREVIEW_WIDTH, Math.round(width)));
  const ratio = frame.width > 0 && frame.height > 0 ? frame.height / frame.width : LETTER_ASPECT;
  const pixelHeight = Math.max(MIN_PREVIEW_PX, Math.min(MAX_PREVIEW_HEIGHT, Math.round(pixelWidth * ratio)));
  const fontSize = Math.max(PLACEHOLDER_FONT.minPx, Math.round(pixelWidth * PLACEHOLDER_FONT.widthShare));
  const escaped = [...sentence].map((c) => (XML_SPECIALS.includes(c) ? `&#${c.charCodeAt(0)};` : c)).join('');
  const lines: string[] = [];
  for (const word of escaped.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < PLACEHOLDER_LINE_CHARS)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const { lineSpacing } = PLACEHOLDER_FONT;
  const top = pixelHeight / 2 - ((lines.length - 1) * fontSize * lineSpacing) / 2;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${pixelWidth / 2}" y="${Math.round(top + i * fontSize * lineSpacing)}" font-family="sans-serif" font-size="${fontSize}" text-anchor="middle" fill="#3f3f46">${line}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelWidth}" height="${pixelHeight}"><rect width="100%" height="100%" fill="#f4f4f5"/>${text}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).png({ compressionLevel: PNG_COMPRESSION }).toBuffer({
    resolveWithObject: true,
  });
  return {
    ...frame,
    png: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    pixelWidth: info.width,
    pixelHeight: info.height,
  };
}

/** Tallest picture drawn, in pixels. */
const MAX_PREVIEW_HEIGHT = 6000;
/** Narrowest (and, for a placeholder, shortest) picture drawn, in pixels. */
const MIN_PREVIEW_PX = 100;
/** Height over width of a placeholder whose page has no size: a US Letter sheet (11 × 8.5 in). */
const LETTER_ASPECT = 1.294;
/** A placeholder's lettering: a share of its width, never below a legible size, in lines this tall. */
const PLACEHOLDER_FONT = { widthShare: 1 / 32, minPx: 12, lineSpacing: 1.4 } as const;
/** Characters a placeholder line holds before its sentence wraps. */
const PLACEHOLDER_LINE_CHARS = 50;
/** zlib level of the PNGs: 6 is zlib's default balance of size and time. */
const PNG_COMPRESSION = 6;
/** EXIF orientations from this one on (5–8) turn the picture a quarter: width and height swap. */
const FIRST_QUARTER_TURN = 5;
/** Characters escaped in the placeholder's SVG text. */
const XML_SPECIALS = '<>&"\'';

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
    const turned = (m.orientation ?? 1) >= FIRST_QUARTER_TURN;
    const w = (turned ? m.height : m.width) ?? 0;
    const h = (turned ? m.width : m.height) ?? 0;
    const dpi = estimateDpi(w, h, m.density ?? meta.density);
    const frame = { width: (w * POINTS_PER_INCH) / dpi, height: (h * POINTS_PER_INCH) / dpi };
    out.push({ frame, pixelWidth: w, pixelHeight: h });
  }
  return out;
}
