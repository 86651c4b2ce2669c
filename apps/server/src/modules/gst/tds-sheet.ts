import type { TdsInvoice } from '@bahi/contracts';
import type { SheetRow } from '../../adapters/sinks/sink.ts';
import type { Db } from '../../db/client.ts';
import { computeRegisterTds } from './tds.service.ts';

// The TDS columns of an invoice's row in its flow's workbook and Google sheet (TDS_SHEET_COLUMNS in
// @bahi/contracts): what the TDS screen shows for the invoice, as cells. Only the row's content is
// decided here; who writes the workbook, and when, is the sheets module's business.

/** What an invoice with no line under a TDS section says in the reason column. */
export const NO_TDS_SECTION =
  'No line falls under a TDS section (by the vendor’s TDS profile or the lines’ SAC codes)';

/** A rate as written in a cell: up to three decimals, no trailing zeros (0.1, 2, 7.5). */
const rateText = (rate: number) => String(Math.round(rate * 1000) / 1000);

/**
 * The TDS cells of one invoice: its sections, the rate (a number when the invoice has one rate, else the
 * rates in section order as text: "2; 10"), the TDS, the net payable (total − TDS; empty without a total)
 * and the reason of each section.
 */
export function toTdsSheetCells(inv: TdsInvoice): SheetRow {
  const sections = inv.sections;
  const rates = [...new Set(sections.map((s) => s.rate))];
  const many = sections.length > 1;
  return {
    tdsSection: sections.length ? [...new Set(sections.map((s) => s.section))].join('; ') : null,
    tdsRate:
      rates.length === 0
        ? null
        : rates.length === 1
          ? rates[0]!
          : sections.map((s) => rateText(s.rate)).join('; '),
    tdsAmount: inv.tds,
    netPayable: inv.netPayable,
    tdsReason: sections.length
      ? sections
          .map((s) => (many ? `${s.section} at ${rateText(s.rate)} %: ${s.reason}` : s.reason))
          .join(' · ')
      : NO_TDS_SECTION,
  };
}

/** The TDS cells of every invoice of the organisation's purchase register, by document id. */
export async function loadTdsSheetCells(db: Db, organizationId: string): Promise<Map<string, SheetRow>> {
  const invoices = await computeRegisterTds(db, organizationId);
  return new Map(invoices.map((inv) => [inv.invoice.id, toTdsSheetCells(inv)]));
}
