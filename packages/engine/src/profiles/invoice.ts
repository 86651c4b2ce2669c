import { listHeaderFields } from '@bahi/contracts/extraction';
import { fieldSpecsOf } from '../fields/vocabulary.ts';
import { wordPhrases } from '../phrases.ts';
import type { DocumentProfile } from './types.ts';

/** A GST tax invoice, bill of supply or cash memo: printed by the supplier. */
export const invoiceProfile: DocumentProfile = {
  type: 'invoice',
  noun: 'invoice',
  issuer: 'vendor',
  title: wordPhrases(['tax invoice', 'invoice', 'bill of supply', 'e-invoice', 'cash memo']),
  votes: wordPhrases(['invoice', 'IRN', 'bill to', 'buyer'], { global: true }),
  headerFields: listHeaderFields('invoice'),
  fieldSpecs: fieldSpecsOf('invoice'),
  money: { roundOffInTotal: true, totalMayBeRounded: false, taxMayBeExtra: false },
  lines: {
    kind: 'priced',
    quantityColumn: 'quantity',
    numericRoles: ['quantity', 'rate', 'discount', 'amount'],
  },
  einvoiceQr: true,
  shipToIsBuyers: false,
  deliveryDateInLines: false,
};
