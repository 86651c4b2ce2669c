/** A 4-connected region of a probability map above a threshold, by its sums. */
export interface Region {
  /** Bounding box, inclusive, in map pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Pixels, and the sum of their probabilities. */
  count: number;
  sum: number;
  /** Sums of x, y, x², y² and x · y over the pixels (the region's moments). */
  mx: number;
  my: number;
  mxx: number;
  myy: number;
  mxy: number;
}

/** Σ_{x=0}^{n} x² (0 for n < 0). */
const squares = (n: number) => (n < 0 ? 0 : (n * (n + 1) * (2 * n + 1)) / 6);

/** Growable run table: each run's row, first and last column, and probability sum. */
class Runs {
  n = 0;
  y = new Int32Array(1024);
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  sum = new Float64Array(1024);
  parent = new Int32Array(1024);

  add(y: number, a: number, b: number, sum: number): number {
    if (this.n === this.y.length) this.grow();
    const i = this.n++;
    this.y[i] = y;
    this.a[i] = a;
    this.b[i] = b;
    this.sum[i] = sum;
    this.parent[i] = i;
    return i;
  }

  private grow() {
    const size = this.y.length * 2;
    const more = <T extends Int32Array | Float64Array>(old: T, fresh: T) => {
      fresh.set(old);
      return fresh;
    };
    this.y = more(this.y, new Int32Array(size));
    this.a = more(this.a, new Int32Array(size));
    this.b = more(this.b, new Int32Array(size));
    this.sum = more(this.sum, new Float64Array(size));
    this.parent = more(this.parent, new Int32Array(size));
  }

  root(i: number): number {
    const p = this.parent;
    let r = i;
    while (p[r] !== r) r = p[r] as number;
    // Path compression: later look-ups of this run's component are one step.
    while (p[i] !== r) {
      const next = p[i] as number;
      p[i] = r;
      i = next;
    }
    return r;
  }

  /** Join two runs' components under the earlier run, so a root is its component's first run. */
  union(i: number, j: number) {
    const ri = this.root(i);
    const rj = this.root(j);
    if (ri < rj) this.parent[rj] = ri;
    else if (rj < ri) this.parent[ri] = rj;
  }
}

/**
 * The 4-connected regions of the map's pixels above `threshold`, in the raster order of their first
 * pixel (as a flood fill started at each unseen pixel finds them). Labelled by row runs joined with
 * the overlapping runs of the row above (union-find), each run's moments in closed form: a pass over
 * the map and work per run, not per pixel. The sums are exact (whole numbers, and probabilities above
 * the threshold added in doubles), so they do not depend on the order the pixels are visited in.
 */
export function thresholdRegions(prob: Float32Array, W: number, H: number, threshold: number): Region[] {
  const runs = new Runs();
  let prevStart = 0;
  let prevEnd = 0;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    const start = runs.n;
    let above = prevStart;
    let x = 0;
    while (x < W) {
      if ((prob[row + x] as number) <= threshold) {
        x++;
        continue;
      }
      const a = x;
      let sum = 0;
      while (x < W && (prob[row + x] as number) > threshold) sum += prob[row + x++] as number;
      const run = runs.add(y, a, x - 1, sum);
      // Runs of the row above ending left of this one cannot touch it or any later one.
      while (above < prevEnd && (runs.b[above] as number) < a) above++;
      for (let k = above; k < prevEnd && (runs.a[k] as number) <= x - 1; k++) runs.union(run, k);
    }
    prevStart = start;
    prevEnd = runs.n;
  }
  const regions: Region[] = [];
  const index = new Int32Array(runs.n);
  for (let i = 0; i < runs.n; i++) {
    const r = runs.root(i);
    const y = runs.y[i] as number;
    const a = runs.a[i] as number;
    const b = runs.b[i] as number;
    const len = b - a + 1;
    const sx = ((a + b) * len) / 2;
    let g: Region;
    if (r === i) {
      index[i] = regions.length;
      g = { x0: a, y0: y, x1: b, y1: y, count: 0, sum: 0, mx: 0, my: 0, mxx: 0, myy: 0, mxy: 0 };
      regions.push(g);
    } else {
      g = regions[index[r] as number] as Region;
      if (a < g.x0) g.x0 = a;
      if (b > g.x1) g.x1 = b;
      if (y > g.y1) g.y1 = y;
    }
    g.count += len;
    g.sum += runs.sum[i] as number;
    g.mx += sx;
    g.my += y * len;
    g.mxx += squares(b) - squares(a - 1);
    g.myy += y * y * len;
    g.mxy += y * sx;
  }
  return regions;
}
