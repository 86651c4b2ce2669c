import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReconcileArgs, runReconcile } from './cli-reconcile.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const result = (file: string, documentType: string, fields: object, lineItems: object[]) =>
  JSON.stringify({ contract: 'extraction/v1', file, documentType, fields, lineItems, error: null });

describe('bahi reconcile', () => {
  it('reads extraction/v1 .ndjson and prints invoices in input order, then purchase orders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bahi-reconcile-'));
    dirs.push(dir);
    const line = { description: 'Gear motor 0.5 HP', unit: 'Nos', quantity: 2, rate: 15000, amount: 30000 };
    const nd = join(dir, 'docs.ndjson');
    await writeFile(
      nd,
      [
        result(
          'inv-b.pdf',
          'invoice',
          { documentNumber: 'B', documentDate: '2025-07-02', poNumber: 'PO-7' },
          [line],
        ),
        result('po.pdf', 'po', { documentNumber: 'PO/7' }, [line]),
        result(
          'inv-a.pdf',
          'invoice',
          { documentNumber: 'A', documentDate: '2025-07-01', poNumber: 'po 7' },
          [line],
        ),
        result('grn.pdf', 'grn', { documentNumber: 'G', poNumber: 'PO-07' }, [
          { description: 'Gear motor 0.5 HP', unit: 'Nos', receivedQuantity: 2, acceptedQuantity: 2 },
        ]),
      ].join('\n'),
    );
    const lines: string[] = [];
    const args = parseReconcileArgs([nd]);
    if (typeof args === 'string') throw new Error(args);
    await runReconcile(
      args,
      (l) => lines.push(l),
      () => {},
    );
    const out = lines.map((l) => JSON.parse(l));
    expect(out.map((o) => [o.kind, o.file])).toEqual([
      ['invoice', 'inv-b.pdf'],
      ['invoice', 'inv-a.pdf'],
      ['po', 'po.pdf'],
    ]);
    // A billed first (earlier date): B finds nothing left to bill.
    expect(out[1]).toMatchObject({ status: 'matched', shouldBePaid: 'yes', matchedGrns: ['grn.pdf'] });
    expect(out[0].reasons).toEqual([expect.objectContaining({ code: 'over_billed', line: 1 })]);
    expect(out[2]).toMatchObject({ contract: 'reconciliation/v1', receipt: 'full', billing: 'over' });
  });

  it('reads tolerances and refuses what it does not know', () => {
    expect(parseReconcileArgs(['--tolerance-price', '5', '--tolerance-amount=2', 'a.pdf'])).toEqual({
      tolerances: { qtyPct: 0, pricePct: 5, amountRupees: 2 },
      files: ['a.pdf'],
    });
    expect(parseReconcileArgs(['--tolerance-qty', 'lots', 'a.pdf'])).toMatch(/needs a number/);
    expect(parseReconcileArgs(['--fast', 'a.pdf'])).toMatch(/unknown option/);
    expect(parseReconcileArgs([])).toMatch(/missing FILE/);
  });
});
