import type { DocumentType } from '../types.ts';
import { grnProfile } from './grn.ts';
import { invoiceProfile } from './invoice.ts';
import { poProfile } from './po.ts';
import type { DocumentProfile } from './types.ts';

export type { DocumentProfile, LineProfile, MoneyRules } from './types.ts';

/**
 * Every document type's profile, in the order titles are tried: a goods receipt mentions its PO
 * and the supplier's invoice, and a PO may say "invoice to", so the narrower titles come first.
 */
export const PROFILES: readonly DocumentProfile[] = [grnProfile, poProfile, invoiceProfile];

const BY_TYPE = new Map(PROFILES.map((p) => [p.type, p]));

/** The profile of a document type. */
export function profileOf(type: DocumentType): DocumentProfile {
  return BY_TYPE.get(type) ?? invoiceProfile;
}

/** Whether a string names a document type the engine reads. */
export function isDocumentType(value: string): value is DocumentType {
  return BY_TYPE.has(value as DocumentType);
}

/** Whether a text is a document title of any type ("TAX INVOICE", "Purchase Order"). */
export function isTitleText(text: string): boolean {
  return PROFILES.some((p) => p.title.test(text));
}
