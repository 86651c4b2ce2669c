import { listHeaderFields } from '@bahi/contracts/extraction';
import { fieldSpecsOf } from '../fields/vocabulary.ts';
import { phrasesAnywhere } from '../phrases.ts';
import type { DocumentProfile } from './types.ts';

/** A GST tax invoice, bill of supply or cash memo: printed by the supplier. */
export const invoiceProfile: DocumentProfile = {
  type: 'invoice',
  noun: 'invoice',
  issuer: 'vendor',
  title: phrasesAnywhere(['tax invoice', 'invoice', 'bill of supply', 'e-invoice', 'cash memo']),
  votes: phrasesAnywhere(['invoice', 'IRN', 'bill to', 'buyer'], 'g'),
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
