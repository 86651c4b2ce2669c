import * as mupdf from 'mupdf';
import { POINTS_PER_INCH } from '../util.ts';

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
/** How far a candidate's sides may differ, as a share of its longer side: a code is square. */
const MAX_SIDE_DIFFERENCE = 0.25;
/** Fewest modules clustered into a candidate: even the smallest QR (21 × 21 modules) has hundreds. */
const MIN_MODULES = 50;
/** Small dark squares kept for clustering: a page of vector specks past this is not a code. */
const MAX_MODULES = 20_000;
/** Drawing operations recorded for rendering: a page of hundreds of thousands of specks is not worth keeping. */
const MAX_RECORDED_OPS = 50_000;
/** Painted at least this opaque and at most this light, an operation can be part of a code. */
const DARK = { minAlpha: 0.5, maxLuminance: 0.5 } as const;
/** Quiet zone added round a candidate: this share of its side, and never less than `min` points. */
const QUIET_ZONE = { share: 0.08, min: 4 } as const;
/** Candidates overlapping by more than this share of the smaller one's area are one code. */
const MERGE_OVERLAP = 0.5;
/** ITU-R BT.601 luma weights of red, green and blue. */
const LUMA = { r: 0.299, g: 0.587, b: 0.114 } as const;
/** Components of a colour in each device colour space. */
const COMPONENTS = { grey: 1, rgb: 3, cmyk: 4 } as const;
/** Grey level of white paper in an 8-bit render. */
const WHITE = 255;

const squareish = (w: number, h: number) =>
  w >= MIN_CODE_PT &&
  h >= MIN_CODE_PT &&
  w <= MAX_CODE_PT &&
  h <= MAX_CODE_PT &&
  Math.abs(w - h) <= MAX_SIDE_DIFFERENCE * Math.max(w, h);

/** Luminance of a device colour (grey, RGB or CMYK components in 0..1). */
function luminance(color: ArrayLike<number>): number {
  const [c0 = 0, c1 = 0, c2 = 0, c3 = 0] = Array.from(color);
  if (color.length === COMPONENTS.grey) return c0;
  if (color.length === COMPONENTS.rgb) return LUMA.r * c0 + LUMA.g * c1 + LUMA.b * c2;
  if (color.length === COMPONENTS.cmyk) return (1 - c3) * (1 - Math.max(c0, c1, c2));
  return 0;
}

/** Whether an operation painted in `color` at `alpha` is dark enough to be part of a code. */
const isDark = (color: ArrayLike<number>, alpha: number) =>
  alpha >= DARK.minAlpha && luminance(color) < DARK.maxLuminance;

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
    const [left = 0, top = 0, right = 0, bottom = 0] = Array.from(b);
    const box: PointRect = [left - bx0, top - by0, right - bx0, bottom - by0];
    const [w, h] = sizeOf(box);
    if (!(w > 0 && h > 0)) return null;
    if (dark && squareish(w, h)) found.push(box);
    else if (dark && w <= MAX_MODULE_PT && h <= MAX_MODULE_PT && modules.length < MAX_MODULES)
      modules.push(box);
    return box;
  };
  const record = (box: PointRect | null, draw: DrawOp['draw'], release: DrawOp['release']) => {
    if (box && ops.length < MAX_RECORDED_OPS) ops.push({ box, draw, release });
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
      const box = consider(path.getBounds(null as unknown as mupdf.StrokeState, ctm), isDark(color, alpha));
      record(
        box,
        (d) => d.fillPath(path, evenOdd, ctm, cs, color as mupdf.Color, alpha),
        () => path.destroy(),
      );
    },
    strokePath(path, stroke, ctm, cs, color, alpha) {
      const box = consider(path.getBounds(stroke, ctm), isDark(color, alpha));
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
      const box = consider(imageBox(ctm), isDark(color, alpha));
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
    const pad = Math.max(QUIET_ZONE.min, QUIET_ZONE.share * Math.max(x1 - x0, y1 - y0));
    return [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
  });
  const merged: PointRect[] = [];
  for (const r of padded.sort((a, b) => area(b) - area(a))) {
    const host = merged.findIndex((m) => overlap(m, r) > MERGE_OVERLAP * area(r));
    if (host >= 0) merged[host] = union(merged[host] as PointRect, r);
    else merged.push([...r]);
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
  const [rx0, ry0, rx1, ry1] = region;
  const x0 = Math.max(0, rx0);
  const y0 = Math.max(0, ry0);
  const x1 = Math.min(size[0], rx1);
  const y1 = Math.min(size[1], ry1);
  const scale = dpi / POINTS_PER_INCH;
  const px0 = Math.floor(x0 * scale);
  const py0 = Math.floor(y0 * scale);
  const px1 = Math.max(px0 + 1, Math.ceil(x1 * scale));
  const py1 = Math.max(py0 + 1, Math.ceil(y1 * scale));
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [px0, py0, px1, py1], false);
  try {
    pixmap.clear(WHITE);
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

/** Width and height of a rectangle. */
const sizeOf = ([x0, y0, x1, y1]: PointRect): [number, number] => [x1 - x0, y1 - y0];

const area = (r: PointRect) => {
  const [w, h] = sizeOf(r);
  return w * h;
};

/** The smallest rectangle holding both. */
const union = ([ax0, ay0, ax1, ay1]: PointRect, [bx0, by0, bx1, by1]: PointRect): PointRect => [
  Math.min(ax0, bx0),
  Math.min(ay0, by0),
  Math.max(ax1, bx1),
  Math.max(ay1, by1),
];

function overlap([ax0, ay0, ax1, ay1]: PointRect, [bx0, by0, bx1, by1]: PointRect): number {
  const w = Math.min(ax1, bx1) - Math.max(ax0, bx0);
  const h = Math.min(ay1, by1) - Math.max(ay0, by0);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Group small dark squares (a QR drawn module by module) into the squares they cover: modules
 * touching or nearly touching (within a module's size) are one group; a group of 50+ modules
 * whose extent is a plausible code size is a candidate.
 */
function clusterModules(modules: PointRect[]): PointRect[] {
  if (modules.length < MIN_MODULES) return [];
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
    let box: PointRect = [...(modules[i] as PointRect)];
    let count = 0;
    while (stack.length) {
      const m = modules[stack.pop() as number] as PointRect;
      const [mx0, my0, mx1, my1] = m;
      count++;
      box = union(box, m);
      const cx = Math.floor(mx0 / cell);
      const cy = Math.floor(my0 / cell);
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (const j of grid.get(key(cx + dx, cy + dy)) ?? []) {
            if (seen[j]) continue;
            const [nx0, ny0, nx1, ny1] = modules[j] as PointRect;
            const gap = Math.max(nx0 - mx1, mx0 - nx1, ny0 - my1, my0 - ny1);
            if (gap <= Math.max(...sizeOf(m))) {
              seen[j] = 1;
              stack.push(j);
            }
          }
    }
    if (count >= MIN_MODULES && squareish(...sizeOf(box))) out.push(box);
  }
  return out;
}
