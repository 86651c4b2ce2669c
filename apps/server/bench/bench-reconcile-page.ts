/**
 * `npm run bench:reconcile-page`: how long the Reconcile screen's request takes for an organisation with
 * N invoices (default 1,000), N/2 purchase orders and N/2 goods receipts, through the real server over
 * HTTP (PGlite, or PostgreSQL when DATABASE_URL is set): the first page, the exceptions view, a vendor
 * filter and a search, each asked 5 times (the first answer is reported apart: caches are cold). Documents
 * are inserted as a run stores them (made-up vendors and numbers), a share of them needing review, a few
 * possible duplicates, and invoices without a PO. The screen's target is under a second.
 *
 * Options: `--invoices N` (1000).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { computeGstinCheckChar } from '@bahi/india';
import { documents } from '../src/db/schema/index.ts';
import { startTestServer } from '../src/test/test-server.ts';
import { openBenchOrganization, storedExtraction } from './bench-support.ts';

const { values } = parseArgs({ options: { invoices: { type: 'string', default: '1000' } } });
const INVOICES = Number(values.invoices);
const POS = Math.ceil(INVOICES / 2);
const vendors = Array.from({ length: 40 }, (_, i) => {
  const first14 = `27AAB${String.fromCharCode(65 + (i % 26))}V${String(1000 + i).padStart(4, '0')}A1Z`;
  return { gstin: first14 + computeGstinCheckChar(first14), name: `Vendor ${i + 1} Traders` };
});
const items = ['Gear motor', 'LED panel', 'Copper wire', 'Ceiling fan'];

const app = await startTestServer();
try {
  const owner = await app.createOnboardedUser('Bench Traders');
  const db = app.server.db;
  const { organizationId, addFlow: flowOf } = await openBenchOrganization(db, owner.userId);
  const [poFlow, grnFlow, invFlow] = [
    await flowOf('POs', 'PO'),
    await flowOf('GRNs', 'GRN'),
    await flowOf('Bills', 'INVOICE'),
  ];
  const rows: Array<typeof documents.$inferInsert> = [];
  const base = { organizationId, processedAt: new Date(), status: 'done' };
  const lines = (p: number) =>
    [0, 1, 2].map((k) => ({
      description: items[(p + k) % 4],
      hsnSac: '8501',
      unit: 'Nos',
      quantity: 10,
      rate: 100 * (k + 1),
      amount: 1000 * (k + 1),
    }));
  for (let p = 0; p < POS; p++) {
    const v = vendors[p % vendors.length]!;
    const fields = {
      documentNumber: `PO/${p}`,
      documentDate: '2025-06-01',
      vendorGstin: v.gstin,
      vendorName: v.name,
    };
    rows.push({
      ...base,
      flowId: poFlow,
      sourceId: `po-${p}`,
      contentHash: `po-${p}`,
      fileName: `po-${p}.pdf`,
      extraction: storedExtraction('po', fields, lines(p)),
    });
    rows.push({
      ...base,
      flowId: grnFlow,
      sourceId: `grn-${p}`,
      contentHash: `grn-${p}`,
      fileName: `grn-${p}.pdf`,
      extraction: storedExtraction(
        'grn',
        { documentNumber: `GRN/${p}`, poNumber: `PO/${p}`, vendorGstin: v.gstin },
        lines(p).map((l) => ({
          description: l.description,
          unit: l.unit,
          receivedQuantity: 10,
          acceptedQuantity: p % 9 === 0 ? 8 : 10,
        })),
      ),
    });
  }
  for (let i = 0; i < INVOICES; i++) {
    const p = Math.floor(i / 2) % POS;
    const v = vendors[p % vendors.length]!;
    // Every 13th names no PO; every 5th needs review; the rest bill half the PO each.
    const fields = {
      documentNumber: `INV/${i}`,
      documentDate: `2025-07-${String(1 + (i % 28)).padStart(2, '0')}`,
      vendorGstin: v.gstin,
      vendorName: v.name,
      poNumber: i % 13 === 0 ? null : `PO/${p}`,
      total: 3540,
    };
    rows.push({
      ...base,
      status: i % 5 === 0 ? 'needs_review' : 'done',
      flowId: invFlow,
      sourceId: `inv-${i}`,
      contentHash: `inv-${i}`,
      fileName: `inv-${i}.pdf`,
      extraction: storedExtraction(
        'invoice',
        fields,
        lines(p).map((l) => ({ ...l, quantity: 5, amount: l.amount / 2 })),
      ),
    });
  }
  for (let at = 0; at < rows.length; at += 500) await db.insert(documents).values(rows.slice(at, at + 500));
  console.log(`${INVOICES} invoices, ${POS} POs, ${POS} GRNs stored (${rows.length} documents)`);

  const cases = [
    ['first page', '/api/reconcile'],
    ['exceptions', '/api/reconcile?view=exception'],
    ['one vendor', `/api/reconcile?vendor=${vendors[3]!.gstin}`],
    ['search', '/api/reconcile?q=INV%2F77'],
    ['page 10', '/api/reconcile?page=10'],
  ] as const;
  for (const [label, path] of cases) {
    const times: number[] = [];
    let bytes = 0;
    let shown = 0;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      const res = await owner.client.raw(path);
      const text = await res.text();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
      bytes = text.length;
      shown = (JSON.parse(text) as { invoices: unknown[] }).invoices.length;
    }
    const warm = times.slice(1).sort((a, b) => a - b);
    console.log(
      `${label.padEnd(11)} first ${times[0]!.toFixed(0)} ms · warm median ${warm[Math.floor(warm.length / 2)]!.toFixed(0)} ms, worst ${warm.at(-1)!.toFixed(0)} ms · ${shown} rows, ${(bytes / 1024).toFixed(0)} KB`,
    );
  }
} finally {
  await app.close();
}
