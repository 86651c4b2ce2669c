import { describe, expect, it } from 'vitest';
import { layoutCellWords } from '../../test/test-words.ts';
import { groupLines } from './geometry.ts';
import { findHeaders } from './header.ts';
import { assignCells } from './rows.ts';

const CW = 4.5;
/** Right-align a number so it ends at `right`. */
const r = (right: number, text: string): [number, string] => [right - text.length * CW, text];

/** The header's columns and each data line's cells, as "kind=words". */
function cellsOf(rows: Array<[number, Array<[number, string]>]>): string[] {
  const words = rows.flatMap(([y, cells]) =>
    cells.flatMap(([x, text]) => layoutCellWords(x, y, text, { charWidth: CW, space: 2.5, height: 9.6 })),
  );
  const lines = groupLines(words);
  const header = findHeaders(lines, 'invoice')[0];
  if (!header) throw new Error('no header');
  return lines.slice(header.last + 1).map((line) =>
    [...assignCells(line, header.columns)]
      .sort(([a], [b]) => a - b)
      .map(([i, ws]) => `${header.columns[i]?.kind}=${ws.map((w) => w.text).join(' ')}`)
      .join(' | '),
  );
}

/** Item | HSN/SAC | Qty (centred) | Rate | Amount. */
const header: [number, Array<[number, string]>] = [
  110,
  [
    [30, 'Item'],
    [150, 'HSN/SAC'],
    [212, 'Qty'],
    [262, 'Rate'],
    [320, 'Amount'],
  ],
];

describe('assignCells', () => {
  it('gives a quantity set flush right past its centred label to the quantity column, not the rate', () => {
    const [row] = cellsOf([
      header,
      // "7" ends at the Qty cell's right border, nearer the Rate label than the Qty label.
      [125, [[30, 'Steel brackets'], [150, '73269099'], r(252, '7'), r(300, '1,250.00'), r(350, '8,750.00')]],
    ]);
    expect(row).toBe(
      'description=Steel brackets | hsn=73269099 | quantity=7 | rate=1,250.00 | amount=8,750.00',
    );
  });

  it('leaves a number beside a unit word where it is, and never moves one into the HSN column', () => {
    const [row] = cellsOf([
      header,
      [
        125,
        [
          [30, 'Steel brackets'],
          [150, '73269099'],
          [196, '132'],
          [214, 'NOS'],
          r(300, '20.00'),
          r(350, '2,640.00'),
        ],
      ],
    ]);
    expect(row).toContain('quantity=132 NOS');
    expect(row).toContain('hsn=73269099');
  });
});
