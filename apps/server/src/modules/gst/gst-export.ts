import { GST_TAB_LABELS, GST_TABS, type GstReconciliation, type GstRow } from '@bahi/contracts';
import { col, defuseRow, writeTempWorkbook } from '../../adapters/sinks/export-tabs.ts';
import type { SheetRow } from '../../adapters/sinks/sink.ts';
import type { WorkbookTab } from '../../adapters/sinks/xlsx-workbook.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { Membership } from '../auth/identity.ts';
import { getGstReconciliation } from './gst.service.ts';

/**
 * The GST screen as workbooks: every tab of a period side by side (books and GSTR-2B), the supplier
 * roll-up, and the Invoice Management System action list. Drawn from the same match the screen shows.
 */

const STATUS_WORDS: Record<GstRow['status'], string> = {
  matched: 'Matched',
  matched_within_tolerance: 'Matched within tolerance',
  mismatch: 'Mismatch',
  probable_match: 'Probable match',
  missing_in_2b: 'Missing in 2B',
  missing_in_books: 'Missing in books',
  duplicate_in_books: 'Booked twice',
};
const IMS_WORDS: Record<GstRow['ims'], string> = { accept: 'Accept', pending: 'Keep pending', none: '—' };
const DECIDED_WORDS = { linked: 'Linked by a person', accepted: 'Difference accepted', unlinked: 'Unlinked' };

const SIDE_COLUMNS = [
  col('vendorName', 'Supplier'),
  col('gstin', 'Supplier GSTIN'),
  col('booksNumber', 'Invoice No. (books)'),
  col('booksDate', 'Invoice Date (books)', 'date'),
  col('booksTaxable', 'Taxable (books)', 'money'),
  col('booksTax', 'Tax (books)', 'money'),
  col('gstr2bNumber', 'Invoice No. (2B)'),
  col('gstr2bDate', 'Invoice Date (2B)', 'date'),
  col('gstr2bTaxable', 'Taxable (2B)', 'money'),
  col('gstr2bTax', 'Tax (2B)', 'money'),
  col('period', '2B Period'),
  col('status', 'Status'),
  col('differences', 'Differences'),
  col('itc', 'ITC at Stake', 'money'),
  col('ims', 'IMS Action'),
  col('decision', 'Decision'),
  col('file', 'Invoice File'),
];

const taxOf = (s: { igst: number; cgst: number; sgst: number; cess: number }) =>
  Math.round((s.igst + s.cgst + s.sgst + s.cess) * 100) / 100;
const periodText = (p: string | null) => (p ? `${p.slice(0, 2)}/${p.slice(2)}` : null);

function sideBySide(r: GstRow): SheetRow {
  const last = r.decisions.at(-1);
  return {
    vendorName: r.vendorName,
    gstin: r.books?.gstin ?? r.gstr2b?.gstin ?? null,
    booksNumber: r.books?.documentNumber ?? null,
    booksDate: r.books?.documentDate ?? null,
    booksTaxable: r.books?.taxableValue ?? null,
    booksTax: r.books ? taxOf(r.books) : null,
    gstr2bNumber: r.gstr2b?.documentNumber ?? null,
    gstr2bDate: r.gstr2b?.documentDate ?? null,
    gstr2bTaxable: r.gstr2b?.taxableValue ?? null,
    gstr2bTax: r.gstr2b ? taxOf(r.gstr2b) : null,
    period: periodText(r.period),
    status: STATUS_WORDS[r.status],
    differences:
      r.differences.map((d) => `${d.field}: books ${d.books ?? '—'}, 2B ${d.gstr2b ?? '—'}`).join('; ') ||
      null,
    itc: r.itc,
    ims: IMS_WORDS[r.ims],
    decision: r.decided && last ? `${DECIDED_WORDS[r.decided]}: ${last.reason} (${last.userName})` : null,
    file: r.invoice?.fileName ?? null,
  };
}

const SUPPLIER_COLUMNS = [
  col('pan', 'PAN'),
  col('vendorName', 'Supplier'),
  col('gstins', 'GSTINs'),
  ...GST_TABS.map((t) => col(t, GST_TAB_LABELS[t], 'number')),
  col('itcBooks', 'ITC in Books', 'money'),
  col('itcGstr2b', 'ITC in 2B', 'money'),
  col('itcAtRisk', 'ITC at Risk', 'money'),
];

const IMS_COLUMNS = [
  col('gstin', 'Supplier GSTIN'),
  col('vendorName', 'Supplier'),
  col('number', 'Document No.'),
  col('date', 'Document Date', 'date'),
  col('period', '2B Period'),
  col('taxable', 'Taxable Value', 'money'),
  col('igst', 'IGST', 'money'),
  col('cgst', 'CGST', 'money'),
  col('sgst', 'SGST', 'money'),
  col('cess', 'Cess', 'money'),
  col('action', 'Suggested Action'),
  col('why', 'Why'),
  col('file', 'Invoice in Books'),
];

/** The IMS list: every supplier document of the period's 2B with the action Bahi suggests. */
export function buildImsRows(view: GstReconciliation): SheetRow[] {
  return view.rows
    .filter((r) => r.gstr2b)
    .map((r) => {
      const g = r.gstr2b!;
      return defuseRow({
        gstin: g.gstin,
        vendorName: r.vendorName,
        number: g.documentNumber,
        date: g.documentDate,
        period: periodText(g.period),
        taxable: g.taxableValue,
        igst: g.igst,
        cgst: g.cgst,
        sgst: g.sgst,
        cess: g.cess,
        action: r.ims === 'accept' ? 'Accept' : 'Pending',
        why: r.decided === 'accepted' ? 'Difference accepted by a person' : STATUS_WORDS[r.status],
        file: r.invoice?.fileName ?? null,
      });
    });
}

/** The workbook's tabs: one per GST tab, then Suppliers and IMS Actions. */
export function buildGstTabs(view: GstReconciliation): WorkbookTab[] {
  return [
    ...GST_TABS.map((tab) => ({
      name: GST_TAB_LABELS[tab],
      columns: SIDE_COLUMNS,
      rows: view.rows.filter((r) => r.tab === tab).map((r) => defuseRow(sideBySide(r))),
    })),
    {
      name: 'Suppliers',
      columns: SUPPLIER_COLUMNS,
      rows: view.suppliers.map((s) =>
        defuseRow({
          ...s.counts,
          pan: s.pan,
          vendorName: s.vendorName,
          gstins: s.gstins.join(', '),
          itcBooks: s.itcBooks,
          itcGstr2b: s.itcGstr2b,
          itcAtRisk: s.itcAtRisk,
        }),
      ),
    },
    { name: 'IMS Actions', columns: IMS_COLUMNS, rows: buildImsRows(view) },
  ];
}

/**
 * `GET /api/gst.xlsx` (every tab) or `GET /api/gst/ims.xlsx` (the IMS list alone), written to a temporary
 * file the caller streams and deletes.
 */
export async function exportGst(
  db: Db,
  {
    env,
    membership,
    period,
    gstin,
    only,
  }: {
    env: Env;
    membership: Membership;
    period?: string | undefined;
    gstin?: string | undefined;
    only?: 'ims';
  },
): Promise<{ path: string; fileName: string }> {
  const view = await getGstReconciliation(db, membership, { period, gstin });
  const tabs = buildGstTabs(view);
  const path = await writeTempWorkbook(env.dataDir, 'gst', only === 'ims' ? tabs.slice(-1) : tabs);
  const month = view.period ? `${view.period.slice(0, 2)}-${view.period.slice(2)}` : 'no period';
  // Each buyer GSTIN has its own 2B: the file says which.
  const label = view.gstin ? `${month} ${view.gstin}` : month;
  return { path, fileName: only === 'ims' ? `IMS actions ${label}.xlsx` : `GSTR-2B match ${label}.xlsx` };
}
