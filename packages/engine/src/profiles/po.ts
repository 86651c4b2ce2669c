import { listHeaderFields } from '@bahi/contracts/extraction';
import { fieldSpecsOf } from '../fields/vocabulary.ts';
import { wordPhrases } from '../phrases.ts';
import type { DocumentProfile } from './types.ts';

/** A purchase (work, service) order: printed by the buying company and addressed to the supplier. */
export const poProfile: DocumentProfile = {
  type: 'po',
  noun: 'purchase order',
  issuer: 'buyer',
  title: wordPhrases(['purchase order', 'work order', 'service order']),
  votes: wordPhrases(['purchase order', 'delivery schedule', 'vendor'], { global: true }),
  headerFields: listHeaderFields('po'),
  fieldSpecs: fieldSpecsOf('po'),
  money: { roundOffInTotal: false, totalMayBeRounded: true, taxMayBeExtra: true },
  lines: {
    kind: 'priced',
    quantityColumn: 'quantity',
    numericRoles: ['quantity', 'rate', 'discount', 'amount'],
  },
  einvoiceQr: false,
  shipToIsBuyers: true,
  deliveryDateInLines: true,
};
