import * as mupdf from 'mupdf';

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
  const scale = dpi / 72;
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
