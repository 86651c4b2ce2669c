import { describe, expect, it } from 'vitest';
import { compareCells, nextSort, sortRows } from './sort-rows.ts';

describe('nextSort', () => {
  it('cycles a column through ascending, descending and unsorted', () => {
    let state = nextSort({ key: null, dir: 'asc' }, 'total');
    expect(state).toEqual({ key: 'total', dir: 'asc' });
    state = nextSort(state, 'total');
    expect(state).toEqual({ key: 'total', dir: 'desc' });
    state = nextSort(state, 'total');
    expect(state.key).toBe(null);
    expect(nextSort({ key: 'total', dir: 'desc' }, 'fileName')).toEqual({ key: 'fileName', dir: 'asc' });
  });
});

describe('sortRows', () => {
  const rows = [
    { n: 'INV-10', total: 1_00_000 },
    { n: 'INV-9', total: 999.5 },
    { n: 'inv-2', total: null },
    { n: 'INV-1', total: '25000' },
  ];
  it('sorts numbers numerically and text naturally', () => {
    expect(sortRows(rows, { key: 'total', dir: 'asc' }).map((r) => r.n)).toEqual([
      'INV-9',
      'INV-1',
      'INV-10',
      'inv-2',
    ]);
    expect(sortRows(rows, { key: 'n', dir: 'asc' }).map((r) => r.n)).toEqual([
      'INV-1',
      'inv-2',
      'INV-9',
      'INV-10',
    ]);
  });
  it('keeps empty cells last in both directions', () => {
    expect(sortRows(rows, { key: 'total', dir: 'desc' }).map((r) => r.n)).toEqual([
      'INV-10',
      'INV-1',
      'INV-9',
      'inv-2',
    ]);
  });
  it('returns a copy in server order when unsorted and is stable on ties', () => {
    const copy = sortRows(rows, { key: null, dir: 'asc' });
    expect(copy).toEqual(rows);
    expect(copy).not.toBe(rows);
    const ties = [
      { k: 1, id: 'a' },
      { k: 1, id: 'b' },
      { k: 0, id: 'c' },
    ];
    expect(sortRows(ties, { key: 'k', dir: 'desc' }).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
  it('compares empties equal to each other', () => {
    expect(compareCells(null, '', 'asc')).toBe(0);
  });
});
