/**
 * `npm run bench:correction`: how long one corrected cell on the review screen takes to answer, for an
 * invoice flow of N documents (default 500) in an organisation that also holds N/2 purchase orders (so the
 * workbook's "Matches" tab has a real reconciliation to compute), through the real server over HTTP
 * (PGlite, or PostgreSQL when DATABASE_URL is set). Each round corrects one invoice's document number
 * (`PATCH /api/documents/:id`) and then waits until the flow's workbook file on disk holds the new value.
 * Reported: the answer's time (target under 200 ms) and the time until the workbook reflects it (target:
 * within seconds). Documents are made up.
 *
 * Options: `--documents N` (500), `--rounds N` (8).
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { documents } from '../src/db/schema/index.ts';
import { findFlowById } from '../src/modules/flows/flows.repo.ts';
import { getWorkbookPath } from '../src/modules/flows/flows.service.ts';
import { startTestServer } from '../src/test/test-server.ts';
import {
  benchVendors,
  insertDocuments,
  openBenchOrganization,
  storedDocument,
  storedExtraction,
} from './bench-support.ts';

const { values } = parseArgs({
  options: { documents: { type: 'string', default: '500' }, rounds: { type: 'string', default: '8' } },
});
const DOCUMENTS = Number(values.documents);
const ROUNDS = Number(values.rounds);
const POS = Math.ceil(DOCUMENTS / 2);
const vendors = benchVendors(20, '29', (n) => `Sample Supplier ${n}`);
const lines = (p: number) =>
  [0, 1].map((k) => ({
    description: `Item ${(p + k) % 7}`,
    hsnSac: '8501',
    unit: 'Nos',
    quantity: 10,
    rate: 50 * (k + 1),
    amount: 500 * (k + 1),
  }));

/** The text cells of the workbook's Documents tab. */
async function readWorkbookNumbers(path: string): Promise<Set<string>> {
  const book = new ExcelJS.Workbook();
  const bytes = await readFile(path).catch(() => null);
  if (!bytes) return new Set();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const found = new Set<string>();
  book.getWorksheet('Documents')?.eachRow((row) => {
    for (const value of row.values as unknown[]) if (typeof value === 'string') found.add(value);
  });
  return found;
}

const app = await startTestServer();
try {
  const owner = await app.createOnboardedUser('Bench Correction Traders');
  const db = app.server.db;
  const { organizationId, addFlow: flowOf } = await openBenchOrganization(db, owner.userId);
  const poFlow = await flowOf('Purchase orders', 'PO');
  const invFlow = await flowOf('Supplier bills', 'INVOICE');
  const rows: Array<typeof documents.$inferInsert> = [];
  for (let p = 0; p < POS; p++) {
    const v = vendors[p % vendors.length]!;
    const fields = {
      documentNumber: `PO-${p}`,
      documentDate: '2026-04-01',
      vendorGstin: v.gstin,
      vendorName: v.name,
    };
    rows.push(
      storedDocument({ organizationId, flowId: poFlow }, `po-${p}`, storedExtraction('po', fields, lines(p))),
    );
  }
  for (let i = 0; i < DOCUMENTS; i++) {
    const p = i % POS;
    const v = vendors[p % vendors.length]!;
    const fields = {
      documentNumber: `BILL-${i}`,
      documentDate: `2026-05-${String(1 + (i % 28)).padStart(2, '0')}`,
      vendorGstin: v.gstin,
      vendorName: v.name,
      poNumber: `PO-${p}`,
      total: 1770,
    };
    rows.push(
      storedDocument(
        { organizationId, flowId: invFlow },
        `bill-${i}`,
        storedExtraction('invoice', fields, lines(p)),
      ),
    );
  }
  await insertDocuments(db, rows);
  const invoices = await db
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.flowId, invFlow))
    .limit(ROUNDS);
  const flow = (await findFlowById(db, invFlow))!;
  const workbook = getWorkbookPath(app.dataDir, flow);
  // The workbook exists before the first correction, as after any run.
  const first = await owner.client.raw(`/api/flows/${invFlow}/sheet.xlsx`);
  if (first.status !== 200) throw new Error(`workbook download: ${first.status}`);
  await first.arrayBuffer();
  console.log(`${DOCUMENTS} invoices and ${POS} purchase orders stored; workbook written`);

  const answers: number[] = [];
  const reflected: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const id = invoices[k % invoices.length]!.id;
    const number = `FIXED-${k}-${Date.now()}`;
    const t0 = performance.now();
    const res = await owner.client.raw(`/api/documents/${id}`, {
      method: 'PATCH',
      json: { fields: { documentNumber: number }, lines: [] },
    });
    const text = await res.text();
    answers.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`correction: ${res.status} ${text.slice(0, 300)}`);
    for (;;) {
      if ((await readWorkbookNumbers(workbook)).has(number)) break;
      if (performance.now() - t0 > 60_000) throw new Error('the workbook did not reflect the correction');
      await new Promise((r) => setTimeout(r, 100));
    }
    reflected.push(performance.now() - t0);
  }
  const summary = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ms`;
  };
  console.log(`answer            ${summary(answers)} (first ${answers[0]!.toFixed(0)} ms)`);
  console.log(`workbook reflects ${summary(reflected)}`);
} finally {
  await app.close();
}
