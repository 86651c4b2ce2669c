import { describe, expect, it } from 'vitest';
import {
  type FlowDocumentType,
  listDocumentSheetColumns,
  listHeaderFieldColumns,
  listLineFieldColumns,
  listLineSheetColumns,
  type SheetColumn,
} from './flows.ts';

/** Columns as `[key, label, kind]` triples, compact to compare. */
const triples = (columns: SheetColumn[]) => columns.map((c) => [c.key, c.label, c.kind]);

/**
 * The sheet columns as they were when they were declared in flows.ts, pinned so deriving them from
 * the extraction/v1 profiles changes nothing a sheet shows (keys, labels, kinds, order). Processed At became a
 * date-time (kind `datetime`) so workbooks hold a real date-time cell; a Google sheet gets it as text. An
 * invoice's row then gained its TDS columns (issue #31), after the header fields.
 */
const pinned: Record<FlowDocumentType, { documents: string[][]; lines: string[][] }> = {
  INVOICE: {
    documents: [
      ['fileName', 'File Name', 'text'],
      ['link', 'Document Link', 'link'],
      ['documentNumber', 'Document No.', 'text'],
      ['documentDate', 'Document Date', 'date'],
      ['vendorName', 'Vendor Name', 'text'],
      ['vendorGstin', 'Vendor GSTIN', 'text'],
      ['vendorAddress', 'Vendor Address', 'text'],
      ['vendorStateCode', 'Vendor State Code', 'text'],
      ['buyerName', 'Buyer Name', 'text'],
      ['buyerGstin', 'Buyer GSTIN', 'text'],
      ['buyerAddress', 'Buyer Address', 'text'],
      ['buyerStateCode', 'Buyer State Code', 'text'],
      ['currency', 'Currency', 'text'],
      ['poNumber', 'PO No.', 'text'],
      ['poDate', 'PO Date', 'date'],
      ['placeOfSupply', 'Place of Supply', 'text'],
      ['taxableValue', 'Taxable Value', 'money'],
      ['cgst', 'CGST', 'money'],
      ['sgst', 'SGST/UTGST', 'money'],
      ['igst', 'IGST', 'money'],
      ['cess', 'Cess', 'money'],
      ['roundOff', 'Round Off', 'money'],
      ['total', 'Total', 'money'],
      ['dueDate', 'Due Date', 'date'],
      ['irn', 'IRN', 'text'],
      ['ackNumber', 'Ack No.', 'text'],
      ['ackDate', 'Ack Date', 'date'],
      ['ewayBillNumber', 'E-way Bill No.', 'text'],
      ['vehicleNumber', 'Vehicle No.', 'text'],
      ['tdsSection', 'TDS Section', 'text'],
      ['tdsRate', 'TDS Rate %', 'number'],
      ['tdsAmount', 'TDS', 'money'],
      ['netPayable', 'Net Payable', 'money'],
      ['tdsReason', 'TDS Reason', 'text'],
      ['checksFailed', 'Checks Failed', 'text'],
      ['reviewFlag', 'Review', 'text'],
      ['processedAt', 'Processed At', 'datetime'],
    ],
    lines: [
      ['documentNumber', 'Document No.', 'text'],
      ['fileName', 'File Name', 'text'],
      ['lineNo', 'Line No.', 'number'],
      ['description', 'Description', 'text'],
      ['hsnSac', 'HSN/SAC', 'text'],
      ['quantity', 'Quantity', 'number'],
      ['unit', 'Unit', 'text'],
      ['rate', 'Rate', 'money'],
      ['discount', 'Discount', 'money'],
      ['amount', 'Amount', 'money'],
      ['gstRate', 'GST %', 'number'],
    ],
  },
  PO: {
    documents: [
      ['fileName', 'File Name', 'text'],
      ['link', 'Document Link', 'link'],
      ['documentNumber', 'Document No.', 'text'],
      ['documentDate', 'Document Date', 'date'],
      ['vendorName', 'Vendor Name', 'text'],
      ['vendorGstin', 'Vendor GSTIN', 'text'],
      ['vendorAddress', 'Vendor Address', 'text'],
      ['vendorStateCode', 'Vendor State Code', 'text'],
      ['buyerName', 'Buyer Name', 'text'],
      ['buyerGstin', 'Buyer GSTIN', 'text'],
      ['buyerAddress', 'Buyer Address', 'text'],
      ['buyerStateCode', 'Buyer State Code', 'text'],
      ['currency', 'Currency', 'text'],
      ['deliveryDate', 'Delivery Date', 'date'],
      ['paymentTerms', 'Payment Terms', 'text'],
      ['placeOfSupply', 'Place of Supply', 'text'],
      ['taxableValue', 'Taxable Value', 'money'],
      ['cgst', 'CGST', 'money'],
      ['sgst', 'SGST/UTGST', 'money'],
      ['igst', 'IGST', 'money'],
      ['cess', 'Cess', 'money'],
      ['total', 'Total', 'money'],
      ['checksFailed', 'Checks Failed', 'text'],
      ['reviewFlag', 'Review', 'text'],
      ['processedAt', 'Processed At', 'datetime'],
    ],
    lines: [
      ['documentNumber', 'Document No.', 'text'],
      ['fileName', 'File Name', 'text'],
      ['lineNo', 'Line No.', 'number'],
      ['description', 'Description', 'text'],
      ['hsnSac', 'HSN/SAC', 'text'],
      ['quantity', 'Quantity', 'number'],
      ['unit', 'Unit', 'text'],
      ['rate', 'Rate', 'money'],
      ['discount', 'Discount', 'money'],
      ['amount', 'Amount', 'money'],
      ['gstRate', 'GST %', 'number'],
    ],
  },
  GRN: {
    documents: [
      ['fileName', 'File Name', 'text'],
      ['link', 'Document Link', 'link'],
      ['documentNumber', 'Document No.', 'text'],
      ['documentDate', 'Document Date', 'date'],
      ['vendorName', 'Vendor Name', 'text'],
      ['vendorGstin', 'Vendor GSTIN', 'text'],
      ['vendorAddress', 'Vendor Address', 'text'],
      ['vendorStateCode', 'Vendor State Code', 'text'],
      ['buyerName', 'Buyer Name', 'text'],
      ['buyerGstin', 'Buyer GSTIN', 'text'],
      ['buyerAddress', 'Buyer Address', 'text'],
      ['buyerStateCode', 'Buyer State Code', 'text'],
      ['currency', 'Currency', 'text'],
      ['poNumber', 'PO No.', 'text'],
      ['poDate', 'PO Date', 'date'],
      ['invoiceNumber', 'Invoice/Challan No.', 'text'],
      ['invoiceDate', 'Invoice Date', 'date'],
      ['vehicleNumber', 'Vehicle No.', 'text'],
      ['checksFailed', 'Checks Failed', 'text'],
      ['reviewFlag', 'Review', 'text'],
      ['processedAt', 'Processed At', 'datetime'],
    ],
    lines: [
      ['documentNumber', 'Document No.', 'text'],
      ['fileName', 'File Name', 'text'],
      ['lineNo', 'Line No.', 'number'],
      ['description', 'Description', 'text'],
      ['hsnSac', 'HSN/SAC', 'text'],
      ['unit', 'Unit', 'text'],
      ['orderedQuantity', 'Ordered Qty', 'number'],
      ['receivedQuantity', 'Received Qty', 'number'],
      ['acceptedQuantity', 'Accepted Qty', 'number'],
      ['rejectedQuantity', 'Rejected Qty', 'number'],
    ],
  },
};

describe('sheet columns', () => {
  for (const type of ['INVOICE', 'PO', 'GRN'] as const) {
    it(`${type}: the Documents tab columns are unchanged`, () => {
      expect(triples(listDocumentSheetColumns(type))).toEqual(pinned[type].documents);
    });

    it(`${type}: the Line Items tab columns are unchanged`, () => {
      expect(triples(listLineSheetColumns(type))).toEqual(pinned[type].lines);
    });

    it(`${type}: the field columns are the tabs minus their bookkeeping columns`, () => {
      const tds = type === 'INVOICE' ? 5 : 0;
      expect(triples(listHeaderFieldColumns(type))).toEqual(pinned[type].documents.slice(2, -3 - tds));
      expect(triples(listLineFieldColumns(type))).toEqual(pinned[type].lines.slice(3));
    });
  }
});
