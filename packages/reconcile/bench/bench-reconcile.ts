/**
 * `npm run bench:reconcile`: matches 10,000 purchase orders, 20,000 goods receipts and 20,000 invoices
 * (extraction results built here, 3 lines each, two deliveries and two invoices per PO, with a share of
 * short deliveries, price changes and duplicates) and reports the time and the outcome counts.
 *
 * Options: `--pos N` (10000).
 */
import { parseArgs } from 'node:util';
import { type MatchDocument, reconcileDocuments } from '../src/reconcile.ts';

const { values } = parseArgs({ options: { pos: { type: 'string', default: '10000' } } });
const POS = Number(values.pos);

const items = [
  'Gear motor 0.5 HP',
  'LED panel 18 W',
  'Copper wire coil 90 m',
  'Ceiling fan 1200 mm',
  'Water tank 500 L',
];
const documents: MatchDocument[] = [];
for (let p = 0; p < POS; p++) {
  const vendor = `29AAB${String(p % 997).padStart(4, '0')}L1ZA`;
  const number = `PO/25-26/${String(p).padStart(5, '0')}`;
  const lines = [0, 1, 2].map((k) => ({
    description: items[(p + k) % items.length],
    hsnSac: String(8501 + ((p + k) % items.length)),
    unit: 'Nos',
    quantity: 10 + k,
    rate: 100 * (k + 1),
  }));
  documents.push({
    file: `po-${p}.pdf`,
    documentType: 'po',
    fields: { documentNumber: number, documentDate: '2025-06-01', vendorGstin: vendor },
    lineItems: lines.map((l) => ({ ...l, amount: l.quantity * l.rate })),
  });
  for (const half of [0, 1]) {
    // Every seventh PO's second delivery is short.
    const short = half === 1 && p % 7 === 0 ? 1 : 0;
    documents.push({
      file: `grn-${p}-${half}.pdf`,
      documentType: 'grn',
      fields: { documentNumber: `GRN-${p}-${half}`, poNumber: number.toLowerCase(), vendorGstin: vendor },
      lineItems: lines.map((l) => ({
        description: l.description,
        unit: l.unit,
        receivedQuantity: Math.floor(l.quantity / 2) + (half ? l.quantity % 2 : 0),
        acceptedQuantity: Math.floor(l.quantity / 2) + (half ? l.quantity % 2 : 0) - short,
      })),
    });
    // Every eleventh PO's second invoice charges 5 % more on its first line.
    const dearer = half === 1 && p % 11 === 0;
    documents.push({
      file: `inv-${p}-${half}.pdf`,
      documentType: 'invoice',
      fields: {
        documentNumber: `INV/${p}/${half}`,
        documentDate: `2025-07-${half ? '20' : '05'}`,
        vendorGstin: vendor,
        poNumber: number,
      },
      lineItems: lines.map((l, k) => {
        const quantity = Math.floor(l.quantity / 2) + (half ? l.quantity % 2 : 0);
        const rate = dearer && k === 0 ? l.rate * 1.05 : l.rate;
        return { ...l, quantity, rate, amount: quantity * rate };
      }),
    });
  }
}

const started = performance.now();
const results = reconcileDocuments(documents);
const ms = performance.now() - started;
const counts = new Map<string, number>();
for (const r of results) {
  const key = r.kind === 'invoice' ? `invoice ${r.status}` : `po receipt ${r.receipt}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
console.log(
  `${POS} POs, ${POS * 2} GRNs, ${POS * 2} invoices matched in ${(ms / 1000).toFixed(2)} s ` +
    `(${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB RSS)`,
);
for (const [key, n] of [...counts].sort()) console.log(`  ${key}: ${n}`);
