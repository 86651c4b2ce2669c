import { listHeaderFields } from '@bahi/contracts/extraction';
import { fieldSpecsOf } from '../fields/vocabulary.ts';
import { phrasesAnywhere } from '../phrases.ts';
import type { DocumentProfile } from './types.ts';

/** A goods receipt (material inward) note: printed by the buying company; it counts goods, not money. */
export const grnProfile: DocumentProfile = {
  type: 'grn',
  noun: 'goods receipt',
  issuer: 'buyer',
  title: phrasesAnywhere([
    'goods receipt',
    'goods received',
    'material receipt',
    'material inward',
    'receipt note',
    'inward note',
    'g.r.n.',
    'm.r.n.',
  ]),
  votes: phrasesAnywhere(['GRN', 'MRN', 'received', 'accepted', 'rejected', 'receipt'], 'g'),
  headerFields: listHeaderFields('grn'),
  fieldSpecs: fieldSpecsOf('grn'),
  money: null,
  lines: {
    kind: 'receipt',
    quantityColumn: 'received',
    numericRoles: ['ordered', 'received', 'accepted', 'rejected'],
  },
  einvoiceQr: false,
  shipToIsBuyers: false,
  deliveryDateInLines: false,
};
