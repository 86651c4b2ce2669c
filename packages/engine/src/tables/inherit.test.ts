import { describe, expect, it } from 'vitest';
import type { Column } from './header.ts';
import { inheritColumns } from './index.ts';

const col = (kind: Column['kind'], x0: number, x1: number, label: string, priority = 1): Column => ({
  kind,
  priority,
  x0,
  x1,
  label,
});

describe('inheritColumns', () => {
  const page1 = [
    col('description', 93, 149, 'Item Description', 2),
    col('hsn', 189, 224, 'HSN Code'),
    col('quantity', 233, 262, 'Quantity'),
    col('rate', 299, 317, 'Unit Price (Rs)'),
    col('discount', 330, 361, 'Discount (Rs)'),
    col('amount', 376, 403, 'Taxable Amount (Rs)', 5),
    col('amount', 548, 565, 'Total'),
  ];

  it('names garbled labels of a repeated header from the previous page, across a small shift', () => {
    const page2 = [
      col('description', 82, 138, 'item Description', 2),
      col('hsn', 178, 213, 'HSN Code'),
      col('quantity', 222, 251, 'Quantity'),
      col('rate', 287, 306, 'price (Rs)'),
      col('other', 319, 350, 're', 0),
      col('other', 365, 393, 'Hesiod (Rs)', 0),
      col('amount', 536, 553, 'Total'),
    ];
    const out = inheritColumns(page2, page1);
    expect(out.map((c) => c.kind)).toEqual([
      'description',
      'hsn',
      'quantity',
      'rate',
      'discount',
      'amount',
      'amount',
    ]);
    expect(out[5]?.priority).toBe(5);
  });

  it('leaves a header alone when its columns do not line up with the previous one', () => {
    const other = [
      col('description', 40, 200, 'Particulars', 2),
      col('quantity', 300, 330, 'Qty'),
      col('other', 400, 430, 'xx', 0),
      col('amount', 500, 540, 'Amount'),
    ];
    expect(inheritColumns(other, page1).map((c) => c.kind)).toEqual([
      'description',
      'quantity',
      'other',
      'amount',
    ]);
  });
});
