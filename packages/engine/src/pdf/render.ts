import * as mupdf from 'mupdf';
import { POINTS_PER_INCH } from '../util.ts';

/** Share of the page an image must cover to be the page's scan. */
const MIN_SCAN_COVER = 0.25;

/** A rendered page: PNG bytes plus the same pixels as raw 8-bit grey, so OCR can skip a decode. */
export interface RenderedPage {
  /** Greyscale PNG of the page (encoded on first access). */
  readonly png: Uint8Array;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The same image as raw 8-bit grey pixels, row-major, `width * height` bytes (no padding). */
  gray: Uint8Array;
}

/**
 * Render one PDF page to a greyscale image at `dpi`.
 * Grey (not RGB) because OCR and QR decoding only need luminance and it is a third of the bytes;
 * no alpha so the background is white, not transparent.
 */
export function renderPage(page: mupdf.Page, dpi: number): RenderedPage {
  const scale = dpi / POINTS_PER_INCH;
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
  try {
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const stride = pixmap.getStride();
    const pixels = pixmap.getPixels();
    // getPixels() is a view into WASM memory that dies with the pixmap: copy it out,
    // dropping any row padding so consumers can treat it as a dense width*height buffer.
    let gray: Uint8Array;
    if (stride === width) gray = new Uint8Array(pixels.subarray(0, width * height));
    else {
      gray = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) gray.set(pixels.subarray(y * stride, y * stride + width), y * width);
    }
    // PNG encoding a noisy 200 dpi scan costs ~0.3 s and the OCR path never needs it, so it is
    // produced on first access (from the grey copy, through a short-lived pixmap) and memoised.
    let png: Uint8Array | undefined;
    return {
      width,
      height,
      gray,
      get png() {
        png ??= encodeGrayPng(gray, width, height, dpi);
        return png;
      },
    };
  } finally {
    pixmap.destroy();
  }
}

/** Encode dense 8-bit grey pixels as a PNG carrying its resolution. */
export function encodeGrayPng(gray: Uint8Array, width: number, height: number, dpi: number): Uint8Array {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false);
  try {
    // A fresh pixmap's stride equals its width for one 8-bit channel without alpha.
    pixmap.getPixels().set(gray);
    pixmap.setResolution(dpi, dpi);
    return pixmap.asPNG();
  } finally {
    pixmap.destroy();
  }
}

/**
 * Resolution of the largest raster image on a page (pixels per inch as placed), or null when
 * the page has no image covering at least a quarter of it. A scanned page should be rendered
 * at this resolution: lower throws away scan detail, higher only resamples the same pixels.
 */
export function pageImageDpi(page: mupdf.Page): number | null {
  const [bx0, by0, bx1, by1] = page.getBounds();
  const pageArea = (bx1 - bx0) * (by1 - by0);
  let best: { area: number; dpi: number } | null = null;
  const st = page.toStructuredText('preserve-images');
  try {
    st.walk({
      onImageBlock(bbox, _transform, image) {
        const [x0, y0, x1, y1] = bbox;
        const w = x1 - x0;
        const h = y1 - y0;
        if (w <= 0 || h <= 0) return;
        const area = w * h;
        // Average the two axes: scanners write square pixels, and a rotated placement swaps them.
        const dpi = ((image.getWidth() / w + image.getHeight() / h) / 2) * POINTS_PER_INCH;
        if (!best || area > best.area) best = { area, dpi };
      },
    });
  } finally {
    st.destroy();
  }
  const found = best as { area: number; dpi: number } | null;
  if (!found || found.area < pageArea * MIN_SCAN_COVER) return null;
  return Math.round(found.dpi);
}
