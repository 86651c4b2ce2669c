/** Sort direction of a table column. */
export type SortDir = 'asc' | 'desc';

/** The column a table is sorted by, or none. */
export interface SortState {
  key: string | null;
  dir: SortDir;
}

/**
 * Next sort after a click on column `key`: a new column sorts ascending, the same column flips to
 * descending, and a third click returns to the server's order.
 */
export function nextSort(current: SortState, key: string): SortState {
  if (current.key !== key) return { key, dir: 'asc' };
  if (current.dir === 'asc') return { key, dir: 'desc' };
  return { key: null, dir: 'asc' };
}

/** Numeric value of a cell if it is a number or a plain numeric string, else null. */
function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/**
 * Compares two cell values for sorting: empties last whatever the direction (a reviewer looks for
 * values, not blanks), numbers numerically, everything else as text with natural digit order
 * (so "INV-9" comes before "INV-10").
 */
export function compareCells(a: unknown, b: unknown, dir: SortDir): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  const sign = dir === 'asc' ? 1 : -1;
  const an = toNumber(a);
  const bn = toNumber(b);
  if (an !== null && bn !== null) return (an - bn) * sign;
  return String(a).localeCompare(String(b), 'en-IN', { numeric: true, sensitivity: 'base' }) * sign;
}

/** Rows sorted by `sort` (a new array; stable, so equal keys keep the server's order). */
export function sortRows<T extends Record<string, unknown>>(rows: readonly T[], sort: SortState): T[] {
  const { key, dir } = sort;
  if (!key) return [...rows];
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => compareCells(x.row[key], y.row[key], dir) || x.index - y.index)
    .map(({ row }) => row);
}
