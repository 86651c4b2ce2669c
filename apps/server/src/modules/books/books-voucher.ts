import {
  type BookInvoice,
  buildPurchaseVoucher,
  type LedgerNames,
  type TdsLine,
  type VoucherResult,
} from '@bahi/compliance';
import type { LedgerMapping, TdsInvoice } from '@bahi/contracts';
import { LedgerMappingSchema } from '@bahi/contracts';
import { readRegister } from '../gst/gst-match.ts';

// From a stored document to its Tally purchase voucher: the one builder of @bahi/compliance, the
// organisation's ledger mapping, and the TDS the GST & TDS module worked out for the invoice (its TDS line).

/** A stored invoice as the voucher reads it. */
export interface StoredInvoice {
  id: string;
  flowId: string;
  fileName: string;
  extraction: unknown;
}

/** The mapping saved on the connection, read leniently (a missing part is empty). */
export function readMapping(value: unknown): LedgerMapping {
  const parsed = LedgerMappingSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : LedgerMappingSchema.parse({});
}

/** The mapping as the builder's ledger names. */
export function ledgerNamesOf(mapping: LedgerMapping): LedgerNames {
  return {
    parties: mapping.parties,
    purchase: mapping.purchase,
    igst: mapping.igst,
    cgst: mapping.cgst,
    sgst: mapping.sgst,
    ...(mapping.cess ? { cess: mapping.cess } : {}),
    ...(mapping.roundOff ? { roundOff: mapping.roundOff } : {}),
  };
}

/** A stored document read as a book invoice. */
export function bookInvoiceOf(doc: StoredInvoice): BookInvoice {
  return readRegister([{ ...doc, approved: true }])[0]!;
}

/**
 * The TDS lines of an invoice: each section's TDS (rupees → paise) credited to the section's TDS payable
 * ledger. A section with TDS but no ledger mapped refuses the voucher with what to map.
 */
export function tdsLinesOf(
  tds: TdsInvoice | undefined,
  mapping: LedgerMapping,
): { ok: true; lines: TdsLine[] } | { ok: false; reason: string } {
  const bySection = new Map<string, number>();
  for (const s of tds?.sections ?? [])
    if (s.tds > 0) bySection.set(s.section, (bySection.get(s.section) ?? 0) + s.tds);
  const lines: TdsLine[] = [];
  for (const [section, rupees] of bySection) {
    const ledger = mapping.tdsPayable[section];
    if (!ledger)
      return {
        ok: false,
        reason: `TDS under section ${section} is deducted on this invoice: choose its TDS payable ledger in the Tally ledger mapping (Integrations)`,
      };
    lines.push({ ledger, amount: Math.round(rupees * 100) });
  }
  return { ok: true, lines };
}

/** The voucher of a stored invoice with the organisation's mapping and the invoice's TDS. */
export function voucherOfDocument(
  doc: StoredInvoice,
  mapping: LedgerMapping,
  tds: TdsInvoice | undefined,
): VoucherResult & { invoice: BookInvoice } {
  const invoice = bookInvoiceOf(doc);
  const lines = tdsLinesOf(tds, mapping);
  if (!lines.ok) return { ok: false, reason: lines.reason, invoice };
  return { ...buildPurchaseVoucher(invoice, { ledgers: ledgerNamesOf(mapping), tds: lines.lines }), invoice };
}
