import type { FieldSpec } from '../fields/vocabulary.ts';
import type { ColumnKind } from '../tables/vocabulary.ts';
import type { DocumentType } from '../types.ts';

/**
 * What the engine knows about one type of document, in one place: who prints it, how it is
 * titled, which labels name its header fields, what money it carries and what its line items
 * hold. Finders ask the profile instead of testing the type, so a new type is one profile file
 * (plus its fields in `@bahi/contracts`).
 */
export interface DocumentProfile {
  type: DocumentType;
  /** The type in words, for messages ("its text holds no purchase order field"). */
  noun: string;
  /**
   * The party who prints it: its letterhead, its "From" and its "For, NAME" sign-off. "To",
   * "M/s" and "Party" headings address the other party.
   */
  issuer: 'vendor' | 'buyer';
  /** A title that names this type near the top of page 1 (`wordPhrases` of its titles). */
  title: RegExp;
  /**
   * Words that vote for this type across page 1 when no title decides (`classify.ts`; a global
   * `wordPhrases`, its matches counted).
   */
  votes: RegExp;
  /** Its header fields, in contract order (declared once, in `@bahi/contracts`). */
  headerFields: string[];
  /** Header-field labels (`fields/vocabulary.ts`). */
  fieldSpecs: FieldSpec[];
  /** The money it carries, or null when it carries none (a goods receipt counts goods). */
  money: MoneyRules | null;
  /** What its line items count. */
  lines: LineProfile;
  /** Whether it can carry a signed e-invoice QR (IRP). */
  einvoiceQr: boolean;
  /** Whether the GSTIN of a delivery ("Ship to") block is the buyer's own site. */
  shipToIsBuyers: boolean;
  /** Whether a delivery date may be printed per line instead of in the header. */
  deliveryDateInLines: boolean;
}

/** How the header amounts of a type add up. */
export interface MoneyRules {
  /** A printed round-off is part of the total (invoices). */
  roundOffInTotal: boolean;
  /** The total may be the sum rounded to whole rupees without a round-off row (POs). */
  totalMayBeRounded: boolean;
  /** "GST extra" documents may print taxes below a pre-tax total (POs). */
  taxMayBeExtra: boolean;
}

/** What a line item of a type holds. */
export interface LineProfile {
  /** `priced`: quantity × rate = amount (invoice, PO); `receipt`: received = accepted + rejected. */
  kind: 'priced' | 'receipt';
  /** The column that gives a line's quantity. */
  quantityColumn: ColumnKind;
  /** The numeric roles an unlabelled column may take, in their usual printed order. */
  numericRoles: ColumnKind[];
}
