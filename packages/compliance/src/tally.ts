// `bahi tally`: every book invoice as a purchase voucher in one import envelope.
import { type BookInvoice, inProcessingOrder } from './books.ts';
import { buildPurchaseVoucher, type LedgerNames, type PurchaseVoucher } from './tally-voucher.ts';
import { tallyEnvelope } from './tally-xml.ts';

/** The import file and the invoices left out, each with its reason. */
export interface TallyExport {
  xml: string;
  vouchers: PurchaseVoucher[];
  skipped: Array<{ file: string; documentNumber: string | null; reason: string }>;
}

/**
 * Purchase vouchers of the invoices in processing order (document date, number key, file).
 * Both copies of a document booked twice are written with one REMOTEID (Tally keeps one).
 */
export function exportTally(invoices: readonly BookInvoice[], ledgers?: LedgerNames): TallyExport {
  const out: TallyExport = { xml: '', vouchers: [], skipped: [] };
  for (const inv of inProcessingOrder(invoices)) {
    const r = buildPurchaseVoucher(inv, { ledgers });
    if (r.ok) out.vouchers.push(r.voucher);
    else out.skipped.push({ file: inv.file, documentNumber: inv.documentNumber, reason: r.reason });
  }
  out.xml = tallyEnvelope(out.vouchers);
  return out;
}
