import { describe, expect, it } from 'vitest';
import { profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { amountLabel } from './amounts.ts';
import { matchStart } from './labels.ts';
import { PARTY_LABELS } from './vocabulary.ts';

// Label wordings seen across Indian invoices, POs and GRNs (Tally, SAP, e-invoice prints, small
// business templates): each must name its field, whatever the layout.
const cases: Array<[DocumentType, string, string]> = [
  ['invoice', 'Inv. Date', 'documentDate'],
  ['invoice', 'Invoice Dt.', 'documentDate'],
  ['invoice', 'Bill Date', 'documentDate'],
  ['invoice', 'Dated', 'GENERIC'],
  ['invoice', 'Invoice Number', 'documentNumber'],
  ['invoice', 'Tax Invoice No.', 'documentNumber'],
  ['invoice', 'Bill No.', 'documentNumber'],
  ['invoice', 'Invoice #', 'documentNumber'],
  ['invoice', 'Document No.', 'documentNumber'],
  ['invoice', 'Inv No', 'documentNumber'],
  ['invoice', 'Invoice Ref', 'documentNumber'],
  ['invoice', 'Serial No. of Invoice', 'documentNumber'],
  ['invoice', 'P.O. No.', 'poNumber'],
  ['invoice', 'PO Ref', 'poNumber'],
  // A '#' with a space after it still ends a number label.
  ['invoice', 'P.O # 88123', 'poNumber'],
  ['invoice', 'Tax Invoice # SP-114', 'documentNumber'],
  ['invoice', 'Order Ref', 'poNumber'],
  ['invoice', 'Your Order No.', 'poNumber'],
  ['invoice', "Buyer's Order No.", 'poNumber'],
  ['invoice', 'Customer PO No.', 'poNumber'],
  ['invoice', 'Purchase Order No.', 'poNumber'],
  ['invoice', 'Order No. & Date', 'poNumber'],
  ['invoice', 'PO Date', 'poDate'],
  ['invoice', 'Order Date', 'poDate'],
  ['invoice', 'Due Date', 'dueDate'],
  ['invoice', 'Payment Due', 'dueDate'],
  ['invoice', 'Place of Supply', 'placeOfSupply'],
  ['invoice', 'State of Supply', 'placeOfSupply'],
  ['invoice', 'Supply State', 'placeOfSupply'],
  ['invoice', 'E-Way Bill No.', 'ewayBillNumber'],
  ['invoice', 'EWB No.', 'ewayBillNumber'],
  ['invoice', 'E-Way Bill Number', 'ewayBillNumber'],
  ['invoice', 'Eway Bill No', 'ewayBillNumber'],
  ['invoice', 'Vehicle No.', 'vehicleNumber'],
  ['invoice', 'Vehicle Number', 'vehicleNumber'],
  ['invoice', 'Truck No.', 'vehicleNumber'],
  ['invoice', 'Vehlcle No', 'vehicleNumber'],
  ['invoice', 'Vehicte Humber', 'vehicleNumber'],
  ['invoice', 'Lorry No', 'vehicleNumber'],
  ['invoice', 'Vehicle Reg. No.', 'vehicleNumber'],
  ['invoice', 'IRN', 'irn'],
  ['invoice', 'Ack No.', 'ackNumber'],
  ['invoice', 'Ack. No', 'ackNumber'],
  ['invoice', 'Acknowledgement No.', 'ackNumber'],
  ['invoice', 'Ack Date', 'ackDate'],
  ['po', 'PO No.', 'documentNumber'],
  ['po', 'P.O. Number', 'documentNumber'],
  ['po', 'Order No.', 'documentNumber'],
  ['po', 'PO #', 'documentNumber'],
  ['po', 'Purchase Order No', 'documentNumber'],
  ['po', 'PO Date', 'documentDate'],
  ['po', 'Order Date', 'documentDate'],
  ['po', 'Date of Order', 'documentDate'],
  ['po', 'Delivery Date', 'deliveryDate'],
  ['po', 'Delivery By', 'deliveryDate'],
  ['po', 'Required By', 'deliveryDate'],
  ['po', 'Expected Delivery', 'deliveryDate'],
  ['po', 'Delivery Schedule', 'deliveryDate'],
  ['po', 'Payment Terms', 'paymentTerms'],
  ['po', 'Terms of Payment', 'paymentTerms'],
  ['po', 'Credit Terms', 'paymentTerms'],
  ['grn', 'GRN No.', 'documentNumber'],
  ['grn', 'GRN Number', 'documentNumber'],
  ['grn', 'MRN No.', 'documentNumber'],
  ['grn', 'Receipt No.', 'documentNumber'],
  ['grn', 'Inward No.', 'documentNumber'],
  ['grn', 'GIN No', 'documentNumber'],
  ['grn', 'Goods Receipt No.', 'documentNumber'],
  ['grn', 'GRN Date', 'documentDate'],
  ['grn', 'Receipt Date', 'documentDate'],
  ['grn', 'Date of Receipt', 'documentDate'],
  ['grn', 'Inward Date', 'documentDate'],
  ['grn', 'Received On', 'documentDate'],
  ['grn', 'PO No.', 'poNumber'],
  ['grn', 'Purchase Order', 'poNumber'],
  ['grn', 'P.O. Ref', 'poNumber'],
  ['grn', 'Order No', 'poNumber'],
  ['grn', 'PO Date', 'poDate'],
  ['grn', 'Invoice No.', 'invoiceNumber'],
  ['grn', 'Supplier Invoice No.', 'invoiceNumber'],
  ['grn', 'Challan No.', 'invoiceNumber'],
  ['grn', 'DC No.', 'invoiceNumber'],
  ['grn', 'Delivery Challan No.', 'invoiceNumber'],
  ['grn', 'Bill No.', 'invoiceNumber'],
  ['grn', 'Party Invoice No', 'invoiceNumber'],
  ['grn', 'Vendor Invoice No.', 'invoiceNumber'],
  ['grn', 'Supplier Bill No', 'invoiceNumber'],
  ['grn', 'Invoice Date', 'invoiceDate'],
  ['grn', 'Challan Date', 'invoiceDate'],
  ['grn', 'DC Date', 'invoiceDate'],
  ['grn', 'Bill Date', 'invoiceDate'],
  ['grn', 'Vehicle No.', 'vehicleNumber'],
  ['grn', 'Truck No', 'vehicleNumber'],
];

const amt: Array<[string, string]> = [
  ['Taxable Value', 'taxableValue'],
  ['Taxable Amount', 'taxableValue'],
  ['Sub Total', 'taxableValue'],
  ['Subtotal', 'taxableValue'],
  ['Total Before Tax', 'taxableValue'],
  ['Assessable Value', 'taxableValue'],
  ['Net Amount', 'taxableValue'],
  ['Total Taxable Value', 'taxableValue'],
  ['Basic Amount', 'taxableValue'],
  ['Amount Before Tax', 'taxableValue'],
  ['CGST', 'cgst'],
  ['CGST @ 9%', 'cgst'],
  ['CGST9%', 'cgst'],
  ['Output SGST Amt', 'sgst'],
  ['Central Tax', 'cgst'],
  ['Add: CGST', 'cgst'],
  ['SGST', 'sgst'],
  ['UTGST', 'sgst'],
  ['State Tax', 'sgst'],
  ['IGST', 'igst'],
  ['Integrated Tax', 'igst'],
  ['Cess', 'cess'],
  ['Round Off', 'roundOff'],
  ['Rounding Off', 'roundOff'],
  ['Round-off', 'roundOff'],
  ['Less: Round Off', 'roundOff'],
  ['Rounded Off', 'roundOff'],
  ['Grand Total', 'total'],
  ['Total', 'total'],
  ['Invoice Total', 'total'],
  ['Total Amount', 'total'],
  ['Total Invoice Value', 'total'],
  ['Net Payable', 'total'],
  ['Amount Payable', 'total'],
  ['Total Payable', 'total'],
  ['Balance Due', 'total'],
  ['Total Amount Payable', 'total'],
  ['Total PO Value', 'total'],
  ['Total Order Value', 'total'],
  ['Net Total', 'total'],
  ['Total (INR)', 'total'],
  ['Total Value', 'total'],
  ['Invoice Value', 'total'],
  ['Total Inv. Amt', 'total'],
  ['Total Amount (Rs.)', 'total'],
  ['Amount Due', 'total'],
  ['Total Amount Due', 'total'],
  ['Bill Amount', 'total'],
  ['Net Amount Payable', 'total'],
];

const party: Array<[string, string]> = [
  ['Bill To', 'buyer'],
  ['Billed To', 'buyer'],
  ['Buyer', 'buyer'],
  ['Buyer (Bill to)', 'buyer'],
  ['Customer', 'buyer'],
  ['Invoice To', 'buyer'],
  ['Sold To', 'buyer'],
  ['Recipient', 'buyer'],
  ['Details of Receiver (Billed to)', 'buyer'],
  ['Consignee', 'shipTo'],
  ['Ship To', 'shipTo'],
  ['Shipped To', 'shipTo'],
  ['Delivery Address', 'shipTo'],
  ['Deliver To', 'shipTo'],
  ['Supplier', 'vendor'],
  ['Vendor', 'vendor'],
  ['Seller', 'vendor'],
  ['Supplier Details', 'vendor'],
  ['Vendor Name', 'vendor'],
  ['Details of Supplier', 'vendor'],
  ['Party', 'counterparty'],
  ['M/s.', 'counterparty'],
  ['To,', 'counterparty'],
  ['To', 'counterparty'],
  ['Received From', 'vendor'],
  ['Party Name', 'counterparty'],
  ['Name of Supplier', 'vendor'],
  ['Buyer Details', 'buyer'],
  ['Customer Name', 'buyer'],
  ['Bill-To', 'buyer'],
  ['Billing Address', 'buyer'],
  ['Shipping Address', 'shipTo'],
  ['Place of Delivery', 'shipTo'],
  ['Billing Details', 'buyer'],
  ['Billing & Shipping Address :', 'buyer'],
  ['Issued To', 'buyer'],
  ['Shipping Details', 'shipTo'],
  ['=== BILLED TO', 'buyer'],
];

describe('label vocabulary', () => {
  it('names header fields from their common wordings', () => {
    const wrong = cases.filter(([type, label, field]) => {
      const hit = profileOf(type).fieldSpecs.find((s) => matchStart(label, s.labels) !== null);
      const got = hit?.field ?? (/^dated?$/i.test(label) ? 'GENERIC' : null);
      return got !== field;
    });
    expect(wrong).toEqual([]);
  });

  it('names totals-block rows', () => {
    expect(amt.filter(([l, f]) => amountLabel(l)?.field !== f)).toEqual([]);
  });

  it('reads OCR\'s spaced possessive as the label it spells ("Buyer\' s Order No" is no buyer heading)', () => {
    expect(matchStart("Buyer' s Order No", PARTY_LABELS.buyer)).toBeNull();
    expect(
      matchStart(
        "Buyer' s Order No",
        profileOf('invoice').fieldSpecs.find((s) => s.field === 'poNumber')!.labels,
      ),
    ).not.toBeNull();
  });

  it('names party blocks by role', () => {
    const roleOf = (l: string) =>
      (Object.entries(PARTY_LABELS) as Array<[string, readonly RegExp[]]>).find(
        ([, ls]) => matchStart(l, ls) !== null,
      )?.[0];
    expect(party.filter(([l, r]) => roleOf(l) !== r)).toEqual([]);
  });
});
