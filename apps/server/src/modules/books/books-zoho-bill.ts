import { buildPurchaseVoucher } from '@bahi/compliance';
import type { ZohoMapping } from '@bahi/contracts';
import { ZohoMappingSchema } from '@bahi/contracts';
import { stateByCode } from '@bahi/india';
import type { ZohoBill } from '../../adapters/books/zoho-books.ts';
import { bookInvoiceOf, type StoredInvoice } from './books-voucher.ts';

// From a stored invoice to its Zoho Books bill. The split of the taxable value by GST rate, the add-up check
// and the round-off are the voucher builder's own (the same invoice gives the same figures in Tally and in
// Zoho): the builder is run with its default ledger names, which carry the rate, and its purchase lines
// become the bill's lines. Zoho works the tax out itself from the tax chosen for each rate; the connector
// checks Zoho's total against the invoice's.

/** The Zoho mapping saved on the connection, read leniently. */
export function readZohoMapping(value: unknown): ZohoMapping {
  const parsed = ZohoMappingSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : ZohoMappingSchema.parse({});
}

const PURCHASE = /^Purchase @(.+)%$/;
const rupees = (paise: number) => paise / 100;

/** The bill of a stored invoice, or why it is not sent (in words, with what to map). */
export function billOfDocument(
  doc: StoredInvoice,
  mapping: ZohoMapping,
): { ok: true; bill: ZohoBill } | { ok: false; reason: string } {
  const inv = bookInvoiceOf(doc);
  const built = buildPurchaseVoucher(inv);
  if (!built.ok) return built;
  if (inv.cess > 0)
    return { ok: false, reason: 'the invoice charges cess, which Bahi does not post to Zoho Books yet' };
  const buyerState = inv.placeOfSupply ?? inv.buyerStateCode;
  const inter =
    inv.igst > 0 ||
    (inv.vendorStateCode !== null && buyerState !== null && inv.vendorStateCode !== buyerState);
  const hsn = inv.lines.find((l) => l.hsnSac)?.hsnSac ?? null;
  const lines: ZohoBill['lines'] = [];
  let adjustment = 0;
  let total = 0;
  for (const e of built.voucher.entries) {
    const rate = PURCHASE.exec(e.ledger)?.[1];
    if (e.isParty) total = e.amount;
    else if (e.ledger === 'Round Off') adjustment = -e.amount;
    if (rate === undefined) continue;
    const accountId = mapping.purchase[rate];
    if (!accountId)
      return {
        ok: false,
        reason: `choose the purchase account for GST ${rate}% in the Zoho Books mapping (Integrations)`,
      };
    const taxId = Number(rate) > 0 ? (inter ? mapping.interTax[rate] : mapping.intraTax[rate]) : null;
    if (taxId === undefined)
      return {
        ok: false,
        reason: `choose the Zoho Books tax for GST ${rate}% ${inter ? 'from another state (IGST)' : 'within the state (CGST + SGST)'} in the Zoho Books mapping (Integrations)`,
      };
    lines.push({
      accountId,
      taxId,
      description: `Purchases at GST ${rate}%`,
      hsnOrSac: hsn,
      amount: rupees(-e.amount),
    });
  }
  return {
    ok: true,
    bill: {
      vendorName: inv.vendorName ?? inv.vendorGstin ?? '',
      vendorGstin: inv.vendorGstin,
      billNumber: inv.documentNumber!,
      date: inv.documentDate!,
      sourceOfSupply: inv.vendorStateCode ? (stateByCode(inv.vendorStateCode)?.abbr ?? null) : null,
      destinationOfSupply: buyerState ? (stateByCode(buyerState)?.abbr ?? null) : null,
      lines,
      adjustment: rupees(adjustment),
      total: rupees(total),
    },
  };
}
