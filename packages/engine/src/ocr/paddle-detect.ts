import type { Tensor as OrtTensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { DET_GREY_CHANNELS } from './det-graph.ts';
import { thresholdRegions } from './det-regions.ts';
import type { Tuning } from './paddle-options.ts';
import type { GrayImage } from './page.ts';

/** A detected text line in image pixels. */
export interface LineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /**
   * A slanted line (a photo's curl, a receipt held askew): its angle in degrees (positive: falling
   * to the right) and its thickness across, grown like the box, in image pixels.
   */
  slant?: { degrees: number; thickness: number };
}

/** Lines slanted less than this are read from their upright box. */
const MIN_SLANT_DEGREES = 0.6;

/**
 * One detector inference (the graph of `det-graph.ts`: grey levels and a plane of ones): input and
 * dims in, the probability map out.
 */
export type Infer = (x: Float32Array, dims: number[]) => Promise<OrtTensor>;

/**
 * Find text lines: the detector's probability map, thresholded, split into 4-connected regions;
 * each region scoring above the box threshold becomes its bounding box grown by the unclip
 * distance (area × ratio / perimeter, as DBNet's post-processing). Boxes are axis-aligned: pages
 * reach OCR de-skewed.
 */
export async function detectLines(gray: GrayImage, o: Tuning, infer: Infer) {
  const s = Math.min(1, o.detMaxSide / Math.max(gray.width, gray.height));
  const W = Math.max(32, Math.round((gray.width * s) / 32) * 32);
  const H = Math.max(32, Math.round((gray.height * s) / 32) * 32);
  const resized = await resizeGray(gray, W, H);
  // A strip is a tile high: narrower strips lost the context that keeps table cells apart.
  const strip = Math.max(2 * DET_TILE_OVERLAP, o.detStripHeight ?? DET_TILE);
  const area =
    o.detInkedArea && o.detBlankLevel > 0
      ? inkedArea(resized, W, H, o.detBlankLevel)
      : { x: 0, y: 0, w: W, h: H };
  const prob =
    o.detLayout === 'tiles'
      ? await detectTiled(resized, W, area, infer, DET_TILE, DET_TILE, o.detBlankLevel)
      : await detectTiled(resized, W, area, infer, area.w, strip, o.detBlankLevel);
  const sx = gray.width / W;
  const sy = gray.height / H;
  const boxes: LineBox[] = [];
  for (const r of thresholdRegions(prob, W, H, o.detThreshold)) {
    const w = r.x1 - r.x0 + 1;
    const h = r.y1 - r.y0 + 1;
    if (Math.min(w, h) < 3) continue;
    // Scored over the region's own pixels: a slanted line's upright box is mostly background, and
    // its mean over that box would drop a clearly found line.
    if (r.sum / r.count < o.detBoxThreshold) continue;
    const d = (w * h * o.unclipRatio) / (2 * (w + h));
    const box: LineBox = {
      x0: Math.max(0, Math.floor((r.x0 - d) * sx)),
      y0: Math.max(0, Math.floor((r.y0 - d) * sy)),
      x1: Math.min(gray.width, Math.ceil((r.x1 + 1 + d) * sx)),
      y1: Math.min(gray.height, Math.ceil((r.y1 + 1 + d) * sy)),
    };
    // The region's axis from its second moments; its thickness across from the spread there
    // (a uniform bar of thickness t has variance t² / 12).
    const { count, mx, my } = r;
    const cxx = r.mxx / count - (mx / count) ** 2;
    const cyy = r.myy / count - (my / count) ** 2;
    const cxy = r.mxy / count - (mx / count) * (my / count);
    const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    const degrees = (theta * 180) / Math.PI;
    if (w > 4 * h && Math.abs(degrees) >= MIN_SLANT_DEGREES && Math.abs(degrees) <= 20) {
      const across = (cxx + cyy) / 2 - Math.sqrt(((cxx - cyy) / 2) ** 2 + cxy ** 2);
      const core = Math.sqrt(12 * Math.max(0, across));
      const length = w / Math.cos(theta);
      const grow = (length * core * o.unclipRatio) / (2 * (length + core));
      box.slant = { degrees, thickness: (core + 2 * grow) * sy };
    }
    boxes.push(box);
  }
  return boxes;
}

/** Side of the square tiles the detector reads a large page in (a multiple of 32). */
const DET_TILE = 1024;
/** Overlap between neighbouring tiles: a line cut by one tile's edge lies whole in the other. */
const DET_TILE_OVERLAP = 128;

/** A rectangle of the detector's input, in its pixels (multiples of 32 from the origin). */
interface DetArea {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Blank paper the detector reads around the print (a multiple of 32): its receptive field sees
 * the same white at the area's edge as it would on the whole page, so lines there are found alike.
 */
const DET_AREA_MARGIN = 64;

/**
 * The part of the detector's input holding print: the bounding box of the pixels darker than
 * `level` (page preparation whitens the paper, so the rest holds none), grown by a margin and
 * aligned to the detector's stride. A page's margins and a short invoice's empty lower half are
 * not read: the detector finds nothing there (as in a blank tile). The whole image when nothing
 * is darker.
 */
export function inkedArea(pixels: Uint8Array, W: number, H: number, level: number): DetArea {
  let x0 = W;
  let x1 = -1;
  let y0 = H;
  let y1 = -1;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let first = -1;
    for (let x = 0; x < W; x++)
      if ((pixels[row + x] as number) < level) {
        first = x;
        break;
      }
    if (first < 0) continue;
    let last = W - 1;
    while ((pixels[row + last] as number) >= level) last--;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y0 === H) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { x: 0, y: 0, w: W, h: H };
  const stride = 32;
  const lo = (v: number) => Math.max(0, Math.floor((v - DET_AREA_MARGIN) / stride) * stride);
  const hi = (v: number, size: number) =>
    Math.min(size, Math.ceil((v + 1 + DET_AREA_MARGIN) / stride) * stride);
  const x = lo(x0);
  const y = lo(y0);
  return { x, y, w: hi(x1, W) - x, h: hi(y1, H) - y };
}

/**
 * The detector's probability map of a page (`W` pixels wide), read over `area` in overlapping
 * tiles of `tileW` × `tileH` (the maximum where they overlap): square tiles, or strips the area's
 * width; zero outside the area. The network's feature maps grow with the input: a 2560-pixel page
 * in one pass held 1.5 GB, a tile a fraction of it, so memory stays bounded whatever the page's size.
 */
async function detectTiled(
  pixels: Uint8Array,
  W: number,
  area: DetArea,
  infer: Infer,
  tileW: number,
  tileH: number,
  blankLevel: number,
): Promise<Float32Array> {
  const prob = new Float32Array(pixels.length);
  const starts = (from: number, size: number, tile: number) => {
    if (size <= tile) return [from];
    const out: number[] = [];
    for (let at = 0; at + tile < size; at += tile - DET_TILE_OVERLAP) out.push(from + at);
    out.push(from + size - tile);
    return out;
  };
  const tw = Math.min(tileW, area.w);
  const th = Math.min(tileH, area.h);
  const tile = tw * th;
  // Every tile has the same size: one input buffer serves them all, its plane of ones filled once.
  const x = new Float32Array(DET_GREY_CHANNELS * tile).fill(1, tile);
  const columns = starts(area.x, area.w, tileW);
  // Rows of the map below this one no tile has written yet (strips come top down): there the tile's
  // map is copied, not merged (the map is a sigmoid's, never below the zeros it replaces).
  let fresh = 0;
  for (const ty of starts(area.y, area.h, tileH))
    for (const tx of columns) {
      if (blankLevel > 0 && blankTile(pixels, W, tx, ty, tw, th, blankLevel)) continue;
      if (tw === W) x.set(pixels.subarray(ty * W, (ty + th) * W));
      else
        for (let y = 0; y < th; y++)
          x.set(pixels.subarray((ty + y) * W + tx, (ty + y) * W + tx + tw), y * tw);
      const out = (await infer(x, [1, DET_GREY_CHANNELS, th, tw])).data as Float32Array;
      const merged = columns.length === 1 ? Math.max(0, Math.min(th, fresh - ty)) : th;
      for (let y = 0; y < th; y++) {
        const row = (ty + y) * W + tx;
        const from = y * tw;
        if (y >= merged) prob.set(out.subarray(from, from + tw), row);
        else
          for (let xx = 0; xx < tw; xx++) {
            const v = out[from + xx] as number;
            if (v > (prob[row + xx] as number)) prob[row + xx] = v;
          }
      }
      fresh = Math.max(fresh, ty + th);
    }
  return prob;
}

/**
 * True when no pixel of a tile is darker than `level`: paper only (a short invoice's empty lower
 * half), where the detector finds nothing, so the tile is not read.
 */
function blankTile(
  pixels: Uint8Array,
  W: number,
  tx: number,
  ty: number,
  tw: number,
  th: number,
  level: number,
) {
  for (let y = 0; y < th; y++) {
    const from = (ty + y) * W + tx;
    for (let x = 0; x < tw; x++) if ((pixels[from + x] as number) < level) return false;
  }
  return true;
}

/** Resize grey pixels with sharp, keeping one channel. */
async function resizeGray(gray: GrayImage, width: number, height: number): Promise<Uint8Array> {
  const { data } = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, width * height);
}
