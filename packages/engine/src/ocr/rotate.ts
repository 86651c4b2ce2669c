import type { GrayImage } from './page.ts';

/** Fixed-point bits of libvips' bilinear weights (its VIPS_INTERPOLATE_SHIFT). */
const WEIGHT_SHIFT = 12;
const WEIGHT_ONE = 1 << WEIGHT_SHIFT;
const WEIGHT_HALF = 1 << (WEIGHT_SHIFT - 1);

/** libvips' VIPS_ROUND_INT: to nearest, halves away from zero. */
function roundInt(v: number): number {
  return Math.trunc(v > 0 ? v + 0.5 : v - 0.5);
}

/** Result of {@link rotateGray}: the rotated page cut to the input's size, and the grey histogram of the whole rotated canvas. */
export interface RotatedPage {
  image: GrayImage;
  /** Grey levels of every pixel of the grown canvas sharp would return (white corners included). */
  histogram: Uint32Array;
  /** Grey levels of `image` alone. */
  cropHistogram: Uint32Array;
}

/**
 * Rotate grey pixels clockwise by `angle` degrees on white, exactly as sharp's `rotate(angle, {
 * background: white })` (libvips' `vips_rotate`: bilinear, 12-bit fixed-point weights, the canvas
 * grown to the rotated corners' bounding box rounded to nearest), then cut the input's size back out
 * of the canvas about its centre. Done here because sharp's pass costs several full-page buffers
 * (and their page faults) for one pixel loop; the crop's pixels are checked against sharp's in the
 * tests. Only the canvas's histogram is kept for its parts outside the crop.
 */
export function rotateGray(img: GrayImage, angle: number): RotatedPage {
  const { width: w, height: h, data: src } = img;
  const rad = (angle * Math.PI) / 180;
  // libvips' similarity matrix and its inverse (output position → input position).
  const a = Math.cos(rad);
  const b = -Math.sin(rad);
  const c = -b;
  const d = a;
  const det = a * d - b * c;
  const ia = d / det;
  const ib = -b / det;
  const ic = -c / det;
  const id = a / det;
  const cornersX = [0, a * w, b * h, a * w + b * h];
  const cornersY = [0, c * w, d * h, c * w + d * h];
  const minX = Math.min(...cornersX);
  const minY = Math.min(...cornersY);
  const left = roundInt(minX);
  const top = roundInt(minY);
  const canvasW = roundInt(Math.max(...cornersX) - minX);
  const canvasH = roundInt(Math.max(...cornersY) - minY);
  const cropLeft = Math.max(0, Math.round((canvasW - w) / 2));
  const cropTop = Math.max(0, Math.round((canvasH - h) / 2));
  const out = new Uint8Array(w * h);
  const histogram = new Uint32Array(256);
  // Input position of each canvas column and row: libvips computes ia·ox + ib·oy per pixel, and
  // the two products are the same numbers whether made here or there.
  const colX = new Float64Array(canvasW);
  const colY = new Float64Array(canvasW);
  for (let x = 0; x < canvasW; x++) {
    colX[x] = ia * (x + left);
    colY[x] = ic * (x + left);
  }
  const row = new Uint8Array(canvasW);
  // The crop and the rest of the canvas counted apart: the crop's own histogram is wanted too.
  const cropHistogram = new Uint32Array(256);
  const spare = new Uint32Array(256);
  const cropSpare = new Uint32Array(256);
  for (let y = 0; y < canvasH; y++) {
    const oy = y + top;
    rotateRow(src, w, h, colX, colY, ib * oy, id * oy, row);
    const cy = y - cropTop;
    if (cy < 0 || cy >= h) {
      countInto(histogram, spare, row);
      continue;
    }
    const inside = row.subarray(cropLeft, cropLeft + w);
    out.set(inside, cy * w);
    countInto(cropHistogram, cropSpare, inside);
    countInto(histogram, spare, row.subarray(0, cropLeft));
    countInto(histogram, spare, row.subarray(cropLeft + w));
  }
  for (let v = 0; v < 256; v++) {
    cropHistogram[v] = (cropHistogram[v] as number) + (cropSpare[v] as number);
    histogram[v] = (histogram[v] as number) + (spare[v] as number) + (cropHistogram[v] as number);
  }
  return { image: { data: out, width: w, height: h }, histogram, cropHistogram };
}

/** One canvas row of the rotation: `rowX`, `rowY` are the row's share of the input position. */
function rotateRow(
  src: Uint8Array,
  w: number,
  h: number,
  colX: Float64Array,
  colY: Float64Array,
  rowX: number,
  rowY: number,
  row: Uint8Array,
): void {
  for (let x = 0; x < row.length; x++) {
    // In 1/4096 pixel: scaling by a power of two is exact, so the floor of the scaled position
    // holds libvips' whole pixel (floor) and its truncated 12-bit fraction at once.
    const qx = Math.floor(((colX[x] as number) + rowX) * WEIGHT_ONE);
    const qy = Math.floor(((colY[x] as number) + rowY) * WEIGHT_ONE);
    const fx = qx >> WEIGHT_SHIFT;
    const fy = qy >> WEIGHT_SHIFT;
    if (fx < -1 || fy < -1 || fx >= w || fy >= h) {
      row[x] = 255;
      continue;
    }
    const wx = qx & (WEIGHT_ONE - 1);
    const wy = qy & (WEIGHT_ONE - 1);
    const wyd = WEIGHT_ONE - wy;
    const c4 = (wy * wx) >> WEIGHT_SHIFT;
    const c2 = (wyd * wx) >> WEIGHT_SHIFT;
    const c3 = wy - c4;
    const c1 = wyd - c2;
    let p1: number;
    let p2: number;
    let p3: number;
    let p4: number;
    if (fx >= 0 && fy >= 0 && fx < w - 1 && fy < h - 1) {
      const i = fy * w + fx;
      p1 = src[i] as number;
      p2 = src[i + 1] as number;
      p3 = src[i + w] as number;
      p4 = src[i + w + 1] as number;
    } else {
      // The input's edge: libvips embeds it in the background (white) for the interpolator.
      p1 = edgePixel(src, w, h, fx, fy);
      p2 = edgePixel(src, w, h, fx + 1, fy);
      p3 = edgePixel(src, w, h, fx, fy + 1);
      p4 = edgePixel(src, w, h, fx + 1, fy + 1);
    }
    row[x] = (c1 * p1 + c2 * p2 + c3 * p3 + c4 * p4 + WEIGHT_HALF) >> WEIGHT_SHIFT;
  }
}

/** A pixel of the input, white outside it. */
function edgePixel(src: Uint8Array, w: number, h: number, x: number, y: number): number {
  return x < 0 || y < 0 || x >= w || y >= h ? 255 : (src[y * w + x] as number);
}

/**
 * Add a row's grey levels to `histogram`, alternating with `spare` (summed in by the caller): one
 * count bumped pixel after pixel along a run of paper waits on its own last store.
 */
function countInto(histogram: Uint32Array, spare: Uint32Array, row: Uint8Array): void {
  let i = 0;
  for (; i + 1 < row.length; i += 2) {
    const a = row[i] as number;
    const b = row[i + 1] as number;
    histogram[a] = (histogram[a] as number) + 1;
    spare[b] = (spare[b] as number) + 1;
  }
  if (i < row.length) {
    const v = row[i] as number;
    histogram[v] = (histogram[v] as number) + 1;
  }
}
