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
import type { documents } from '../src/db/schema/index.ts';
import { startTestServer } from '../src/test/test-server.ts';
import {
  benchVendors,
  insertDocuments,
  openBenchOrganization,
  storedDocument,
  storedExtraction,
} from './bench-support.ts';

const { values } = parseArgs({ options: { invoices: { type: 'string', default: '1000' } } });
const INVOICES = Number(values.invoices);
const POS = Math.ceil(INVOICES / 2);
const vendors = benchVendors(40, '27', (n) => `Vendor ${n} Traders`);
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
  const base = { organizationId };
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
    rows.push(
      storedDocument({ ...base, flowId: poFlow }, `po-${p}`, storedExtraction('po', fields, lines(p))),
    );
    const received = lines(p).map((l) => ({
      description: l.description,
      unit: l.unit,
      receivedQuantity: 10,
      acceptedQuantity: p % 9 === 0 ? 8 : 10,
    }));
    const grn = { documentNumber: `GRN/${p}`, poNumber: `PO/${p}`, vendorGstin: v.gstin };
    rows.push(
      storedDocument({ ...base, flowId: grnFlow }, `grn-${p}`, storedExtraction('grn', grn, received)),
    );
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
    const billed = lines(p).map((l) => ({ ...l, quantity: 5, amount: l.amount / 2 }));
    const status = i % 5 === 0 ? 'needs_review' : 'done';
    rows.push(
      storedDocument(
        { ...base, flowId: invFlow, status },
        `inv-${i}`,
        storedExtraction('invoice', fields, billed),
      ),
    );
  }
  await insertDocuments(db, rows);
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
