import { listHeaderFields } from '@bahi/contracts/extraction';
import { fieldSpecsOf } from '../fields/vocabulary.ts';
import { wordPhrases } from '../phrases.ts';
import type { DocumentProfile } from './types.ts';

/** A goods receipt (material inward) note: printed by the buying company; it counts goods, not money. */
export const grnProfile: DocumentProfile = {
  type: 'grn',
  noun: 'goods receipt',
  issuer: 'buyer',
  title: wordPhrases([
    'goods receipt',
    'goods received',
    'material receipt',
    'material inward',
    'receipt note',
    'inward note',
    'g.r.n.',
    'm.r.n.',
  ]),
  votes: wordPhrases(['GRN', 'MRN', 'received', 'accepted', 'rejected', 'receipt'], { global: true }),
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
