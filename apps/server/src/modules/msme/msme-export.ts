import { type Form1Row, financialYearLabel, form1Rows, section43bhRows } from '@bahi/compliance';
import { col, defuseRow, writeTempWorkbook } from '../../adapters/sinks/export-tabs.ts';
import type { SheetRow } from '../../adapters/sinks/sink.ts';
import type { WorkbookTab } from '../../adapters/sinks/xlsx-workbook.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { Membership } from '../auth/identity.ts';
import { loadMsmeBook, type MsmeBook } from './msme.service.ts';

/**
 * The MSME workbooks: Form-1 of a half-year (one line per supplier PAN, the 45-day buckets and the
 * reasons for delay) and the year-end section 43B(h) list. Text from documents is defused, never a formula.
 */

const rupees = (paise: number) => paise / 100;

const FORM1_COLUMNS = [
  col('name', 'Name of the Supplier'),
  col('pan', 'PAN of the Supplier'),
  col('udyam', 'Udyam Registration No.'),
  col('withinCount', 'Paid within 45 days: invoices', 'number'),
  col('withinAmount', 'Paid within 45 days: amount', 'money'),
  col('laterCount', 'Paid after 45 days: invoices', 'number'),
  col('laterAmount', 'Paid after 45 days: amount', 'money'),
  col('dueCount', 'Outstanding within 45 days: invoices', 'number'),
  col('dueAmount', 'Outstanding within 45 days: amount', 'money'),
  col('beyondCount', 'Outstanding beyond 45 days: invoices', 'number'),
  col('beyondAmount', 'Outstanding beyond 45 days: amount', 'money'),
  col('reasons', 'Reasons for delay'),
];

/** The PAN a vendor row files under (its own, else read from its GSTIN). */
function panOf(book: MsmeBook, vendorId: string): string {
  const v = book.vendors.find((x) => x.id === vendorId);
  return v?.pan ?? v?.gstin?.slice(2, 12) ?? '';
}

/** Form-1 lines merged per PAN: a supplier with several GSTINs is one supplier. */
export function form1Sheet(book: MsmeBook, period: { financialYear: number; half: 'H1' | 'H2' }): SheetRow[] {
  const merged = new Map<string, Form1Row & { vendorIds: string[] }>();
  for (const r of form1Rows(book.inputs, book.results, period)) {
    const pan = panOf(book, r.vendorId);
    const into = merged.get(pan);
    if (!into) {
      merged.set(pan, { ...r, vendorIds: [r.vendorId] });
      continue;
    }
    for (const k of ['paidWithin45', 'paidLater', 'outstandingWithin45', 'outstandingBeyond45'] as const) {
      into[k] = { count: into[k].count + r[k].count, paise: into[k].paise + r[k].paise };
    }
    into.reasons = [...new Set([...into.reasons, ...r.reasons])];
    into.vendorIds.push(r.vendorId);
  }
  return [...merged.entries()].map(([pan, r]) => {
    const first = book.vendors.find((v) => v.id === r.vendorIds[0]);
    const udyam = book.registrations.find(
      (g) => r.vendorIds.includes(g.vendorId) && g.financialYear === period.financialYear && g.udyam,
    )?.udyam;
    return defuseRow({
      name: first?.name ?? '',
      pan,
      udyam: udyam ?? null,
      withinCount: r.paidWithin45.count,
      withinAmount: rupees(r.paidWithin45.paise),
      laterCount: r.paidLater.count,
      laterAmount: rupees(r.paidLater.paise),
      dueCount: r.outstandingWithin45.count,
      dueAmount: rupees(r.outstandingWithin45.paise),
      beyondCount: r.outstandingBeyond45.count,
      beyondAmount: rupees(r.outstandingBeyond45.paise),
      reasons: r.reasons.join('; ') || null,
    });
  });
}

const S43BH_COLUMNS = [
  col('name', 'Supplier'),
  col('pan', 'PAN'),
  col('number', 'Invoice No.'),
  col('date', 'Invoice Date', 'date'),
  col('acceptedOn', 'Accepted On', 'date'),
  col('dueDate', 'Due Date', 'date'),
  col('amount', 'Invoice Amount', 'money'),
  col('unpaid', 'Unpaid at 31 March', 'money'),
  col('allowed', 'Paid by Due Date after Year End (allowed)', 'money'),
  col('disallowed', 'Disallowed u/s 43B(h)', 'money'),
  col('atRisk', 'Due Later: Pay by Due Date to Keep', 'money'),
];

/** The 43B(h) list of a financial year, one row per invoice unpaid at 31 March. */
export function section43bhSheet(book: MsmeBook, financialYear: number): SheetRow[] {
  return section43bhRows(book.results, financialYear).map((r) => {
    const input = book.inputs.find((i) => i.id === r.id)!;
    const result = book.results.find((x) => x.id === r.id)!;
    return defuseRow({
      name: book.vendors.find((v) => v.id === r.vendorId)?.name ?? '',
      pan: panOf(book, r.vendorId),
      number: book.meta.get(r.id)?.documentNumber ?? null,
      date: input.invoiceDate,
      acceptedOn: result.acceptedOn,
      dueDate: r.dueDate,
      amount: rupees(input.amountPaise),
      unpaid: rupees(r.unpaidAtYearEndPaise),
      allowed: rupees(r.allowedPaise),
      disallowed: rupees(r.disallowedPaise),
      atRisk: rupees(r.atRiskPaise),
    });
  });
}

async function writeOne(env: Env, tab: WorkbookTab, fileName: string) {
  return { path: await writeTempWorkbook(env.dataDir, 'msme', [tab]), fileName };
}

/** `GET /api/msme/form1.xlsx`: MSME Form-1 of a half-year. */
export async function exportForm1(
  db: Db,
  {
    env,
    membership,
    financialYear,
    half,
  }: { env: Env; membership: Membership; financialYear: number; half: 'H1' | 'H2' },
) {
  const book = await loadMsmeBook(db, membership);
  const label = `${half === 'H1' ? 'April-September' : 'October-March'} ${financialYearLabel(financialYear)}`;
  return writeOne(
    env,
    { name: 'MSME Form-1', columns: FORM1_COLUMNS, rows: form1Sheet(book, { financialYear, half }) },
    `MSME Form-1 ${label}.xlsx`,
  );
}

/** `GET /api/msme/43bh.xlsx`: the year-end section 43B(h) list. */
export async function export43bh(
  db: Db,
  { env, membership, financialYear }: { env: Env; membership: Membership; financialYear: number },
) {
  const book = await loadMsmeBook(db, membership);
  return writeOne(
    env,
    { name: 'Section 43B(h)', columns: S43BH_COLUMNS, rows: section43bhSheet(book, financialYear) },
    `Section 43B(h) ${financialYearLabel(financialYear)}.xlsx`,
  );
}
