// Made-up purchase invoices and GSTR-2B files for the package's tests (no real business).
import { type BookInvoice, readBookInvoice } from './books.ts';

/** A made-up supplier's GSTINs: Karnataka and Maharashtra registrations of one PAN, and another supplier. */
export const SUPPLIER = '29AAGCS4821K1Z3';
export const SUPPLIER_MH = '27AAGCS4821K1Z9';
export const OTHER = '29BBHPR7731M1Z2';
export const BUYER = '29AACCB9000Q1ZX';

/** Fields of a made-up invoice; amounts in rupees. */
export interface InvoiceSpec {
  file?: string;
  number?: string | null;
  date?: string | null;
  gstin?: string | null;
  vendor?: string;
  pos?: string | null;
  taxable?: number;
  igst?: number | null;
  cgst?: number | null;
  sgst?: number | null;
  cess?: number | null;
  roundOff?: number | null;
  total?: number | null;
  lines?: Array<{
    hsnSac?: string | null;
    amount: number;
    gstRate?: number | null;
    discount?: number | null;
  }>;
}

/** A book invoice as `bahi` reads an extraction/v1 result; an intra-state 18 % bill unless told otherwise. */
export function invoice(spec: InvoiceSpec = {}): BookInvoice {
  const taxable = spec.taxable ?? 10_000;
  const intra = spec.igst === undefined;
  const cgst = spec.cgst !== undefined ? spec.cgst : intra ? Math.round(taxable * 9) / 100 : null;
  const sgst = spec.sgst !== undefined ? spec.sgst : intra ? Math.round(taxable * 9) / 100 : null;
  const igst = spec.igst ?? null;
  const sum =
    Math.round(
      (taxable + (cgst ?? 0) + (sgst ?? 0) + (igst ?? 0) + (spec.cess ?? 0) + (spec.roundOff ?? 0)) * 100,
    ) / 100;
  return readBookInvoice({
    file: spec.file ?? `inv/${spec.number ?? 'x'}.pdf`,
    documentType: 'invoice',
    fields: {
      documentNumber: spec.number === undefined ? 'SF/25-26/0101' : spec.number,
      documentDate: spec.date === undefined ? '2025-08-14' : spec.date,
      vendorName: spec.vendor ?? 'Hesaraghatta Fasteners & Co.',
      vendorGstin: spec.gstin === undefined ? SUPPLIER : spec.gstin,
      buyerGstin: BUYER,
      buyerStateCode: '29',
      placeOfSupply: spec.pos === undefined ? '29' : spec.pos,
      taxableValue: taxable,
      cgst,
      sgst,
      igst,
      cess: spec.cess ?? null,
      roundOff: spec.roundOff ?? null,
      total: spec.total === undefined ? sum : spec.total,
    },
    lineItems: (spec.lines ?? [{ hsnSac: '73181500', amount: taxable, gstRate: 18 }]).map((l) => ({
      description: 'item',
      hsnSac: l.hsnSac ?? null,
      amount: l.amount,
      gstRate: l.gstRate ?? null,
      discount: l.discount ?? null,
    })),
  });
}

/** One GSTR-2B invoice row in the portal's flat shape; amounts in rupees, date DD-MM-YYYY. */
export function row2b(
  inum: string,
  dt: string,
  amounts: Record<string, number>,
  extra: Record<string, unknown> = {},
) {
  return {
    inum,
    typ: 'R',
    dt,
    pos: '29',
    rev: 'N',
    itcavl: 'Y',
    rsn: '',
    txval: 0,
    igst: 0,
    cgst: 0,
    sgst: 0,
    cess: 0,
    ...amounts,
    ...extra,
  };
}

/** A GSTR-2B file of one return period. */
export function file2b(period: string, b2b: Record<string, unknown[]>, b2ba: Record<string, unknown[]> = {}) {
  const section = (m: Record<string, unknown[]>) =>
    Object.entries(m).map(([ctin, inv]) => ({ ctin, trdnm: 'SUPPLIER', inv }));
  return {
    chksum: 'x',
    data: { gstin: BUYER, rtnprd: period, docdata: { b2b: section(b2b), b2ba: section(b2ba) } },
  };
}
