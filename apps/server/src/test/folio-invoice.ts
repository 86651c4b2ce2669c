import { textPdf } from '../../../../packages/engine/test/pdf-builder.ts';

/** The GSTIN printed on every invoice of the "Folio" vendor. */
export const FOLIO_VENDOR_GSTIN = '27AAECM8421K1Z8';

/**
 * An invoice of a vendor whose paper calls its number "Folio", a label the rules do not know as an
 * invoice number: read without memory, its number is missed; once a person corrects one, memory reads
 * the vendor's next invoices right (memory tests and the review browser test).
 */
export function folioInvoicePdf(ref: string, date: string): Uint8Array {
  return textPdf([
    [
      'ACME TOOLS PRIVATE LIMITED',
      `GSTIN : ${FOLIO_VENDOR_GSTIN}`,
      'TAX INVOICE',
      `Folio ${ref}`,
      `Invoice Date : ${date}`,
      'Taxable Value : 1,000.00',
      'CGST @ 9% : 90.00',
      'SGST @ 9% : 90.00',
      'Total : 1,180.00',
    ],
  ]);
}
