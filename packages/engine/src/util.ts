// Small numeric and text helpers shared by every stage of the engine: one definition each.

/** Median of a list (0 for an empty list). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Levenshtein distance, capped: returns `max + 1` as soon as it is exceeded. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}

/** Whether a character is an ASCII letter or digit. */
export const isAsciiAlphanumeric = (c: string): boolean =>
  (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

/** A code compared without case, spaces or punctuation: "inv/24-25/007" → "INV2425007". */
export function alphanumericKey(text: string): string {
  return [...text.toUpperCase()].filter(isAsciiAlphanumeric).join('');
}

/**
 * Two amounts agree to the paisa: one paisa, with room for the float drift of a sum of figures.
 * Every money comparison of the engine (totals, row sums, memory) uses this one tolerance.
 */
export const PAISA_TOLERANCE = 0.011;

/** PDF points in an inch: page boxes are in points, rasters in pixels at some dpi. */
export const POINTS_PER_INCH = 72;

/** Bytes in a mebibyte (1024 × 1024). */
const BYTES_PER_MEBIBYTE = 1_048_576;

/** Bytes in `n` mebibytes (size limits are written in MB). */
export function mebibytes(n: number): number {
  return n * BYTES_PER_MEBIBYTE;
}
