import sharp from 'sharp';
import type { GrayImage } from './page.ts';
import { otsuThreshold } from './page-stretch.ts';

// Dark bands turned into dark print on paper, and the paper whitened, before recognition.

/**
 * Invert the dark bands of a page in place, so their light print reads as dark print on paper.
 * Table headers, totals rows and letterheads are often printed white on a coloured band; the
 * background cleaning below would whiten band and print alike, and Tesseract reads inverted text
 * poorly. A band row is crossed by a long run (≥ 0.8 in) that is mostly ink (≥ 55 %, light gaps
 * up to 0.08 in for the print on it); rows whose runs line up make a band at least 0.06 in tall
 * that is mostly ink as a whole (≥ 60 %, not solid) with solid ground above and below its print,
 * inverted as one rectangle so the print on it stays whole. Words of bold black type, ruled lines
 * and page frames are none of these. Returns the number of pixels inverted.
 */
export function invertDarkBands(img: GrayImage, dpi: number, threshold = otsuThreshold(img.data)): number {
  const { data, width, height } = img;
  const gap = Math.max(2, Math.round(0.08 * dpi));
  const minRun = Math.round(0.8 * dpi);
  const minRows = Math.max(3, Math.round(0.06 * dpi));
  interface Run {
    y: number;
    x0: number;
    x1: number;
  }
  const runs: Run[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x = 0;
    while (x < width) {
      while (x < width && (data[row + x] as number) >= threshold) x++;
      if (x >= width) break;
      const start = x;
      let last = x;
      let ink = 0;
      while (x < width && x - last <= gap) {
        if ((data[row + x] as number) < threshold) {
          last = x;
          ink++;
        }
        x++;
      }
      const length = last - start + 1;
      if (length >= minRun && ink >= 0.55 * length) runs.push({ y, x0: start, x1: last });
      x = last + 1;
    }
  }
  // Group runs into bands: a run joins a band whose last run sits a few rows up and overlaps it.
  const bands: Run[][] = [];
  const open: Run[][] = [];
  for (const r of runs) {
    const band = open.find((b) => {
      const last = b[b.length - 1]!;
      const overlap = Math.min(last.x1, r.x1) - Math.max(last.x0, r.x0);
      return r.y - last.y <= minRows && overlap > 0.5 * Math.min(last.x1 - last.x0, r.x1 - r.x0);
    });
    if (band) band.push(r);
    else {
      const b = [r];
      open.push(b);
      bands.push(b);
    }
    // Bands that ended well above this row take no more runs.
    for (let k = open.length - 1; k >= 0; k--)
      if (r.y - open[k]![open[k]!.length - 1]!.y > minRows) open.splice(k, 1);
  }
  let inverted = 0;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rowInk = (y: number, x0: number, x1: number) => {
    let n = 0;
    for (let i = y * width + x0; i <= y * width + x1; i++) if ((data[i] as number) < threshold) n++;
    return n / (x1 - x0 + 1);
  };
  for (const b of bands) {
    const x0 = median(b.map((r) => r.x0));
    const x1 = median(b.map((r) => r.x1));
    // Rows of print just above or below the band joined it through their runs: trim them.
    let y0 = b[0]!.y;
    let y1 = b[b.length - 1]!.y;
    while (y0 < y1 && rowInk(y0, x0, x1) < 0.6) y0++;
    while (y1 > y0 && rowInk(y1, x0, x1) < 0.6) y1--;
    if (y1 - y0 + 1 < minRows) continue;
    if (!printedBand(img, { x0, x1, y0, y1 }, threshold)) continue;
    // A band has solid ground above and below its print; a word of bold type does not.
    const third = Math.max(1, Math.floor((y1 - y0 + 1) / 3));
    const solidRows = (from: number, to: number) => {
      let n = 0;
      for (let y = from; y <= to; y++) if (rowInk(y, x0, x1) >= 0.97) n++;
      return n;
    };
    if (solidRows(y0, y0 + third - 1) < 2 || solidRows(y1 - third + 1, y1) < 2) continue;
    for (let y = y0; y <= y1; y++)
      for (let i = y * width + x0; i <= y * width + x1; i++) data[i] = 255 - (data[i] as number);
    inverted += (y1 - y0 + 1) * (x1 - x0 + 1);
  }
  return inverted;
}

/**
 * Whether a rectangle is a band with print on it: over the whole of it mostly ink (rows of bold
 * type between rules are not), far lighter print on it than its ground (white on navy; paper in a
 * photo's shadow holds dark print and only a few pixels just above the threshold), and some print
 * at all: a solid bar (a page frame, a thick rule) has none. A phone photo blurs white type thin,
 * so print is counted against the band's own ground, not the page's threshold.
 */
function printedBand(
  img: GrayImage,
  r: { x0: number; x1: number; y0: number; y1: number },
  threshold: number,
): boolean {
  const { data, width } = img;
  let ink = 0;
  let groundSum = 0;
  let printSum = 0;
  for (let y = r.y0; y <= r.y1; y++)
    for (let i = y * width + r.x0; i <= y * width + r.x1; i++) {
      const v = data[i] as number;
      if (v < threshold) {
        ink++;
        groundSum += v;
      } else printSum += v;
    }
  const area = (r.y1 - r.y0 + 1) * (r.x1 - r.x0 + 1);
  if (ink < 0.6 * area || ink === area) return false;
  const ground = groundSum / ink;
  if (printSum / (area - ink) - ground < 90) return false;
  let print = 0;
  for (let y = r.y0; y <= r.y1; y++)
    for (let i = y * width + r.x0; i <= y * width + r.x1; i++)
      if ((data[i] as number) >= ground + BAND_PRINT_LIFT) print++;
  return print >= 0.005 * area;
}

/** How much lighter than a band's ground its print is at least (a blurred white stroke's core). */
const BAND_PRINT_LIFT = 60;

/**
 * Divide the page by a local estimate of the paper brightness and whiten everything close to it,
 * in place. Scans come with grey paper and speckle noise, photos with uneven light; Tesseract's
 * global Otsu threshold turns both into specks that break its line finding (a noisy table row
 * came out as "Shet D0 mum foplx"). Text keeps its grey levels, rescaled against the local
 * paper, so the LSTM still sees anti-aliased strokes.
 */
export async function cleanBackground(img: GrayImage, dpi: number): Promise<Uint32Array> {
  const { width, height, data } = img;
  const raw = { raw: { width, height, channels: 1 as const } };
  // Paper estimate: a wide blur (~0.1 in) is dominated by the background between strokes.
  const sigma = Math.max(3, 0.1 * dpi);
  const [paper, smooth] = await Promise.all([
    sharp(data, raw).blur(sigma).extractChannel(0).raw().toBuffer(),
    // A light blur removes single-pixel noise before the background test.
    sharp(data, raw)
      .blur(0.6 + dpi / 600)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ]);
  const { paperFrom, scaled } = cleanTables();
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) {
    const bg = paper[i] as number;
    const v =
      (smooth[i] as number) >= (paperFrom[bg] as number)
        ? 255
        : (scaled[(bg << 8) | (data[i] as number)] as number);
    data[i] = v;
    histogram[v] = (histogram[v] as number) + 1;
  }
  return histogram;
}

/** Tables of {@link cleanBackground}, made on first use. */
let cleanTableCache: { paperFrom: Uint16Array; scaled: Uint8Array } | undefined;

/**
 * For each local paper level `bg` (0 taken as 1): the lightest smoothed level still ink (`paperFrom`,
 * the first level within 12 % of the paper), and every grey level stretched against it (`scaled`,
 * 256 entries a paper level): the per-pixel arithmetic done once.
 */
function cleanTables(): { paperFrom: Uint16Array; scaled: Uint8Array } {
  if (cleanTableCache) return cleanTableCache;
  const paperFrom = new Uint16Array(256);
  const scaled = new Uint8Array(256 * 256);
  for (let level = 0; level < 256; level++) {
    const bg = Math.max(1, level);
    let from = 0;
    // Within 12% of the local paper is paper; darker is ink, stretched against the paper.
    while (from < 256 && !(from >= bg * 0.88)) from++;
    paperFrom[level] = from;
    for (let g = 0; g < 256; g++) scaled[(level << 8) | g] = Math.min(255, Math.round((g * 255) / bg));
  }
  cleanTableCache = { paperFrom, scaled };
  return cleanTableCache;
}
