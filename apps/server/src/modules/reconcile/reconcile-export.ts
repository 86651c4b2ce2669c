import {
  describePayable,
  describeReconcileReason,
  invoiceStatusWords,
  type Reconciliation,
} from '@bahi/contracts';
import { col, writeTempWorkbook } from '../../adapters/sinks/export-tabs.ts';
import type { SheetRow } from '../../adapters/sinks/sink.ts';
import type { WorkbookTab } from '../../adapters/sinks/xlsx-workbook.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { Membership } from '../auth/identity.ts';
import { getReconciliation } from './reconcile.service.ts';

/**
 * The reconciliation as a workbook a finance team files or mails: "Matches" (one row per invoice line with
 * its PO, GRNs, status and reasons), "Exceptions" (the queue: invoices to hold, and why) and "Purchase
 * Orders" (receipt and billing). Drawn from the same match the screen shows, at the moment of download.
 */

const STATUS_WORDS: Record<string, string> = invoiceStatusWords;
const STATE_WORDS: Record<string, string> = {
  none: 'None',
  partial: 'Partly',
  full: 'In full',
  over: 'Over',
};

const MATCH_COLUMNS = [
  col('invoiceNumber', 'Invoice No.'),
  col('invoiceFile', 'Invoice File'),
  col('invoiceDate', 'Invoice Date', 'date'),
  col('vendorName', 'Vendor'),
  col('vendorGstin', 'Vendor GSTIN'),
  col('line', 'Line', 'number'),
  col('description', 'Description'),
  col('billed', 'Billed Qty', 'number'),
  col('rate', 'Rate', 'money'),
  col('poNumber', 'PO No.'),
  col('poLine', 'PO Line', 'number'),
  col('poRate', 'PO Rate', 'money'),
  col('grns', 'GRN No.'),
  col('received', 'Received Qty', 'number'),
  col('alreadyBilled', 'Billed Before', 'number'),
  col('lineStatus', 'Line Status'),
  col('status', 'Invoice Status'),
  col('payable', 'Should Be Paid'),
  col('reasons', 'Reasons'),
  col('override', 'Cleared Because'),
];

const EXCEPTION_COLUMNS = [
  col('invoiceNumber', 'Invoice No.'),
  col('invoiceFile', 'Invoice File'),
  col('invoiceDate', 'Invoice Date', 'date'),
  col('vendorName', 'Vendor'),
  col('vendorGstin', 'Vendor GSTIN'),
  col('total', 'Total', 'money'),
  col('poNumber', 'PO No.'),
  col('payable', 'Should Be Paid'),
  col('reasons', 'Reasons'),
];

const PO_COLUMNS = [
  col('poNumber', 'PO No.'),
  col('poFile', 'PO File'),
  col('vendorName', 'Vendor'),
  col('vendorGstin', 'Vendor GSTIN'),
  col('receipt', 'Received'),
  col('billing', 'Billed'),
];

type Invoice = Reconciliation['invoices'][number];

function reasonsOf(invoice: Invoice, line: number | null): string {
  return invoice.reasons
    .filter((r) => line === null || r.line === null || r.line === line)
    .map(
      (r) => `${describeReconcileReason(r.code)}${r.line !== null ? ` (line ${r.line})` : ''}: ${r.message}`,
    )
    .join('; ');
}

/** The workbook's tabs for a reconciliation. */
export function buildReconciliationTabs(view: Reconciliation): WorkbookTab[] {
  const matches: SheetRow[] = [];
  for (const inv of view.invoices) {
    const head = {
      invoiceNumber: inv.invoice.documentNumber,
      invoiceFile: inv.invoice.fileName,
      invoiceDate: inv.documentDate,
      vendorName: inv.vendorName,
      vendorGstin: inv.vendorGstin,
      poNumber: inv.po?.documentNumber ?? inv.poNumber,
      grns: inv.grns.map((g) => g.documentNumber ?? g.fileName).join(', ') || null,
      // A held copy says so: it is the one of the pair that is never paid.
      status: inv.copyOf
        ? 'Possible duplicate — decide in Review'
        : (STATUS_WORDS[inv.effectiveStatus] ?? null),
      payable: describePayable(inv),
      override: inv.override ? `${inv.override.reason} (${inv.override.userName})` : null,
    };
    if (inv.lines.length === 0) matches.push({ ...head, reasons: reasonsOf(inv, null) || null });
    for (const l of inv.lines)
      matches.push({
        ...head,
        line: l.line,
        description: l.description,
        billed: l.billed,
        rate: l.rate,
        poLine: l.poLine,
        poRate: l.poRate,
        received: l.received,
        alreadyBilled: l.alreadyBilled,
        lineStatus: STATUS_WORDS[l.status] ?? l.status,
        reasons: reasonsOf(inv, l.line) || null,
      });
  }
  const exceptions: SheetRow[] = view.invoices
    .filter((i) => i.effectiveStatus === 'exception' || i.effectiveStatus === 'no_po_needs_approval')
    .map((i) => ({
      invoiceNumber: i.invoice.documentNumber,
      invoiceFile: i.invoice.fileName,
      invoiceDate: i.documentDate,
      vendorName: i.vendorName,
      vendorGstin: i.vendorGstin,
      total: i.total,
      poNumber: i.po?.documentNumber ?? i.poNumber,
      payable: describePayable(i),
      reasons: reasonsOf(i, null),
    }));
  const pos: SheetRow[] = view.pos.map((p) => ({
    poNumber: p.po.documentNumber,
    poFile: p.po.fileName,
    vendorName: p.vendorName,
    vendorGstin: p.vendorGstin,
    receipt: STATE_WORDS[p.receipt] ?? p.receipt,
    billing: STATE_WORDS[p.billing] ?? p.billing,
  }));
  return [
    { name: 'Matches', columns: MATCH_COLUMNS, rows: matches },
    { name: 'Exceptions', columns: EXCEPTION_COLUMNS, rows: exceptions },
    { name: 'Purchase Orders', columns: PO_COLUMNS, rows: pos },
  ];
}

/**
 * `GET /api/reconcile.xlsx`: the reconciliation written to a temporary file (the caller streams it and
 * deletes it). Returns its path and the name to download it under.
 */
export async function exportReconciliation(
  db: Db,
  env: Env,
  membership: Membership,
): Promise<{ path: string; fileName: string }> {
  const view = await getReconciliation(db, membership);
  const path = await writeTempWorkbook(env.dataDir, 'reconcile', buildReconciliationTabs(view));
  return { path, fileName: `Reconciliation ${view.today}.xlsx` };
}
