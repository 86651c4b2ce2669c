import { describe, expect, it } from 'vitest';
import { type Region, thresholdRegions } from './det-regions.ts';

/** The flood fill the labelling replaced: a stack, a pixel at a time, started in raster order. */
function floodRegions(prob: Float32Array, W: number, H: number, threshold: number): Region[] {
  const seen = new Uint8Array(W * H);
  const out: Region[] = [];
  for (let i = 0; i < W * H; i++) {
    if (seen[i] || (prob[i] as number) <= threshold) continue;
    const r: Region = { x0: W, y0: H, x1: 0, y1: 0, count: 0, sum: 0, mx: 0, my: 0, mxx: 0, myy: 0, mxy: 0 };
    const stack = [i];
    seen[i] = 1;
    while (stack.length > 0) {
      const p = stack.pop() as number;
      const x = p % W;
      const y = (p - x) / W;
      r.count++;
      r.sum += prob[p] as number;
      r.mx += x;
      r.my += y;
      r.mxx += x * x;
      r.myy += y * y;
      r.mxy += x * y;
      r.x0 = Math.min(r.x0, x);
      r.x1 = Math.max(r.x1, x);
      r.y0 = Math.min(r.y0, y);
      r.y1 = Math.max(r.y1, y);
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < W - 1 ? p + 1 : -1,
        y > 0 ? p - W : -1,
        y < H - 1 ? p + W : -1,
      ])
        if (q >= 0 && !seen[q] && (prob[q] as number) > threshold) {
          seen[q] = 1;
          stack.push(q);
        }
    }
    out.push(r);
  }
  return out;
}

/** A map of random blobs and bars (U shapes, diagonals: runs that join only rows later). */
function randomMap(W: number, H: number, seed: number): Float32Array {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const prob = new Float32Array(W * H);
  for (let k = 0; k < 60; k++) {
    const cx = rand() * W;
    const cy = rand() * H;
    const rx = 1 + rand() * 12;
    const ry = 1 + rand() * 4;
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(H, cy + ry); y++)
      for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(W, cx + rx); x++)
        prob[y * W + x] = Math.max(prob[y * W + x] as number, Math.fround(0.2 + 0.8 * rand()));
  }
  for (let y = 0; y < H; y++) {
    prob[y * W + ((y * 3) % W)] = 0.9;
    if (y < H - 2) prob[y * W + 5] = prob[y * W + 9] = 0.8;
  }
  for (let x = 5; x <= 9; x++) prob[(H - 2) * W + x] = 0.7;
  return prob;
}

describe('thresholdRegions', () => {
  it.each([1, 2, 3, 4])('finds the flood fill’s regions, sums and order (map %i)', (seed) => {
    const [W, H] = [97, 61];
    const prob = randomMap(W, H, seed);
    const want = floodRegions(prob, W, H, 0.3);
    expect(want.length).toBeGreaterThan(5);
    expect(thresholdRegions(prob, W, H, 0.3)).toEqual(want);
  });

  it('finds nothing on an empty map and one region on a full one', () => {
    expect(thresholdRegions(new Float32Array(12), 4, 3, 0.3)).toEqual([]);
    const [full] = thresholdRegions(new Float32Array(12).fill(0.5), 4, 3, 0.3);
    expect(full).toMatchObject({ x0: 0, y0: 0, x1: 3, y1: 2, count: 12, sum: 6, mx: 18, my: 12 });
  });
});
