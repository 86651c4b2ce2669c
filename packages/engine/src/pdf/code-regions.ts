import * as mupdf from 'mupdf';

/** A rectangle in PDF points relative to the page's top-left corner: x0, y0, x1, y1. */
export type PointRect = [number, number, number, number];

/** A grey raster of part of a page, with the page position of its top-left pixel. */
export interface RegionImage {
  /** Dense 8-bit grey pixels, `width * height` bytes. */
  gray: Uint8Array;
  width: number;
  height: number;
  /** Resolution the region was rendered at. */
  dpi: number;
  /** Page position (points, from the page's top-left corner) of the image's top-left pixel. */
  origin: [number, number];
}

/** Smallest side of a printed e-invoice QR code we look for: half an inch. */
const MIN_CODE_PT = 36;
/** Largest: a code wider than a third of an A4 page is not a QR printed on an invoice. */
const MAX_CODE_PT = 300;
/** A QR module drawn as its own filled square is smaller than this. */
const MAX_MODULE_PT = 8;

const squareish = (w: number, h: number) =>
  w >= MIN_CODE_PT &&
  h >= MIN_CODE_PT &&
  w <= MAX_CODE_PT &&
  h <= MAX_CODE_PT &&
  Math.abs(w - h) <= 0.25 * Math.max(w, h);

/** Luminance of a device colour (grey, RGB or CMYK components in 0..1). */
function luminance(color: ArrayLike<number>): number {
  if (color.length === 1) return color[0] as number;
  if (color.length === 3)
    return 0.299 * (color[0] as number) + 0.587 * (color[1] as number) + 0.114 * (color[2] as number);
  if (color.length === 4)
    return (1 - (color[3] as number)) * (1 - Math.max(...Array.from(color).slice(0, 3)));
  return 0;
}

/** One recorded drawing operation of the page (paths and images: what a code is made of). */
type DrawOp = {
  box: PointRect;
  draw: (device: mupdf.Device) => void;
  release: () => void;
};

/** Candidate code regions of a page, and a renderer for them. Call `dispose` when done. */
export interface CodeRegions {
  /** Candidate squares, padded by a quiet zone, in points from the page's top-left, largest first. */
  regions: PointRect[];
  /** Rasterise one region at `dpi` from the recorded paths and images (text is left out). */
  render(region: PointRect, dpi: number): RegionImage;
  /** Free the recorded operations (mupdf objects). */
  dispose(): void;
}

/**
 * Where a QR code can be on a text-layer page, without rendering it: one pass of the page's
 * drawing operations through a collecting device. A code is drawn as an image, as one dark
 * path (or stroked run list) covering a square, or as many small dark squares close together;
 * text, table rules and light cell shading are none of these.
 *
 * The pass records the page's paths and images, so a candidate is rasterised from them alone:
 * no second run of the content stream, and no text (glyph rendering is most of a page render).
 * Rendering the whole page at 200 dpi and scanning it cost ~60 ms a page; this costs a few, and
 * a page with no candidate (most invoices that only print the IRN) is not rendered at all.
 */
export function findCodeRegions(page: mupdf.Page): CodeRegions {
  const [bx0, by0] = page.getBounds();
  const found: PointRect[] = [];
  const modules: PointRect[] = [];
  const ops: DrawOp[] = [];
  const consider = (b: ArrayLike<number>, dark: boolean): PointRect | null => {
    const x0 = (b[0] as number) - bx0;
    const y0 = (b[1] as number) - by0;
    const x1 = (b[2] as number) - bx0;
    const y1 = (b[3] as number) - by0;
    const w = x1 - x0;
    const h = y1 - y0;
    if (!(w > 0 && h > 0)) return null;
    const box: PointRect = [x0, y0, x1, y1];
    if (dark && squareish(w, h)) found.push(box);
    else if (dark && w <= MAX_MODULE_PT && h <= MAX_MODULE_PT && modules.length < 20_000) modules.push(box);
    return box;
  };
  const record = (box: PointRect | null, draw: DrawOp['draw'], release: DrawOp['release']) => {
    // Bounded: a page of hundreds of thousands of vector specks is not worth keeping.
    if (box && ops.length < 50_000) ops.push({ box, draw, release });
    else release();
  };
  const device = recordingDevice(consider, record);
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  found.push(...clusterModules(modules));
  const merged = mergeCandidates(found);
  const [, , bx1, by1] = page.getBounds();
  const pageW = bx1 - bx0;
  const pageH = by1 - by0;
  return {
    regions: merged.sort((a, b) => area(b) - area(a)),
    render: (region, dpi) =>
      renderOps(
        ops.filter((op) => overlap(op.box, region) > 0),
        region,
        dpi,
        [-bx0, -by0],
        [pageW, pageH],
      ),
    dispose: () => {
      for (const op of ops.splice(0)) op.release();
    },
  };
}

/**
 * A device that hands each drawing operation's box to `consider` (with whether it is dark) and keeps
 * the operation with `record` so a region can be drawn again on its own.
 */
function recordingDevice(
  consider: (b: ArrayLike<number>, dark: boolean) => PointRect | null,
  record: (box: PointRect | null, draw: DrawOp['draw'], release: DrawOp['release']) => void,
): mupdf.Device {
  const imageBox = (ctm: mupdf.Matrix): PointRect => {
    // An image fills the unit square mapped through its matrix.
    const [a, b, c, d, e, f] = ctm;
    const xs = [e, a + e, c + e, a + c + e];
    const ys = [f, b + f, d + f, b + d + f];
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  };
  return new mupdf.Device({
    fillPath(path, evenOdd, ctm, cs, color, alpha) {
      const box = consider(
        path.getBounds(null as unknown as mupdf.StrokeState, ctm),
        alpha >= 0.5 && luminance(color) < 0.5,
      );
      record(
        box,
        (d) => d.fillPath(path, evenOdd, ctm, cs, color as mupdf.Color, alpha),
        () => path.destroy(),
      );
    },
    strokePath(path, stroke, ctm, cs, color, alpha) {
      const box = consider(path.getBounds(stroke, ctm), alpha >= 0.5 && luminance(color) < 0.5);
      record(
        box,
        (d) => d.strokePath(path, stroke, ctm, cs, color as mupdf.Color, alpha),
        () => {
          path.destroy();
          stroke.destroy();
        },
      );
    },
    fillImage(image, ctm, alpha) {
      const box = consider(imageBox(ctm), true);
      record(
        box,
        (d) => d.fillImage(image, ctm, alpha),
        () => image.destroy(),
      );
    },
    fillImageMask(image, ctm, cs, color, alpha) {
      const box = consider(imageBox(ctm), alpha >= 0.5 && luminance(color) < 0.5);
      record(
        box,
        (d) => d.fillImageMask(image, ctm, cs, color as mupdf.Color, alpha),
        () => image.destroy(),
      );
    },
  });
}

/** Pad by a quiet zone and merge overlapping candidates (a code's modules inside its own frame). */
function mergeCandidates(found: PointRect[]): PointRect[] {
  const padded = found.map(([x0, y0, x1, y1]): PointRect => {
    const pad = Math.max(4, 0.08 * Math.max(x1 - x0, y1 - y0));
    return [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
  });
  const merged: PointRect[] = [];
  for (const r of padded.sort((a, b) => area(b) - area(a))) {
    const host = merged.find((m) => overlap(m, r) > 0.5 * area(r));
    if (host) {
      host[0] = Math.min(host[0], r[0]);
      host[1] = Math.min(host[1], r[1]);
      host[2] = Math.max(host[2], r[2]);
      host[3] = Math.max(host[3], r[3]);
    } else merged.push([...r]);
  }
  return merged;
}

/** Rasterise recorded operations over one region (grey, white background). */
function renderOps(
  ops: DrawOp[],
  region: PointRect,
  dpi: number,
  shift: [number, number],
  size: [number, number],
): RegionImage {
  const x0 = Math.max(0, region[0]);
  const y0 = Math.max(0, region[1]);
  const x1 = Math.min(size[0], region[2]);
  const y1 = Math.min(size[1], region[3]);
  const scale = dpi / 72;
  const px0 = Math.floor(x0 * scale);
  const py0 = Math.floor(y0 * scale);
  const px1 = Math.max(px0 + 1, Math.ceil(x1 * scale));
  const py1 = Math.max(py0 + 1, Math.ceil(y1 * scale));
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [px0, py0, px1, py1], false);
  try {
    pixmap.clear(255);
    // Page space → pixels of the page rendered from its top-left corner at `dpi`.
    const ctm = mupdf.Matrix.concat(
      mupdf.Matrix.translate(shift[0], shift[1]),
      mupdf.Matrix.scale(scale, scale),
    );
    const device = new mupdf.DrawDevice(ctm, pixmap);
    try {
      for (const op of ops) op.draw(device);
      device.close();
    } finally {
      device.destroy();
    }
    const width = px1 - px0;
    const height = py1 - py0;
    const stride = pixmap.getStride();
    const pixels = pixmap.getPixels();
    const gray = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) gray.set(pixels.subarray(y * stride, y * stride + width), y * width);
    return { gray, width, height, dpi, origin: [px0 / scale, py0 / scale] };
  } finally {
    pixmap.destroy();
  }
}

const area = (r: PointRect) => (r[2] - r[0]) * (r[3] - r[1]);

function overlap(a: PointRect, b: PointRect): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Group small dark squares (a QR drawn module by module) into the squares they cover: modules
 * touching or nearly touching (within a module's size) are one group; a group of 50+ modules
 * whose extent is a plausible code size is a candidate.
 */
function clusterModules(modules: PointRect[]): PointRect[] {
  if (modules.length < 50) return [];
  const cell = MAX_MODULE_PT;
  const grid = new Map<string, number[]>();
  const key = (cx: number, cy: number) => `${cx},${cy}`;
  modules.forEach((m, i) => {
    const k = key(Math.floor(m[0] / cell), Math.floor(m[1] / cell));
    const list = grid.get(k);
    if (list) list.push(i);
    else grid.set(k, [i]);
  });
  const seen = new Uint8Array(modules.length);
  const out: PointRect[] = [];
  for (let i = 0; i < modules.length; i++) {
    if (seen[i]) continue;
    seen[i] = 1;
    const stack = [i];
    const box: PointRect = [...(modules[i] as PointRect)];
    let count = 0;
    while (stack.length) {
      const m = modules[stack.pop() as number] as PointRect;
      count++;
      box[0] = Math.min(box[0], m[0]);
      box[1] = Math.min(box[1], m[1]);
      box[2] = Math.max(box[2], m[2]);
      box[3] = Math.max(box[3], m[3]);
      const cx = Math.floor(m[0] / cell);
      const cy = Math.floor(m[1] / cell);
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (const j of grid.get(key(cx + dx, cy + dy)) ?? []) {
            if (seen[j]) continue;
            const n = modules[j] as PointRect;
            const gap = Math.max(n[0] - m[2], m[0] - n[2], n[1] - m[3], m[1] - n[3]);
            if (gap <= Math.max(m[2] - m[0], m[3] - m[1])) {
              seen[j] = 1;
              stack.push(j);
            }
          }
    }
    if (count >= 50 && squareish(box[2] - box[0], box[3] - box[1])) out.push(box);
  }
  return out;
}
