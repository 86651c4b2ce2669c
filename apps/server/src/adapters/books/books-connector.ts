import type { PurchaseVoucher } from '@bahi/compliance';

// The seam between Bahi's posting (modules/books) and an accounting package. One file per implementation
// (`tally-connector.ts`, `zoho-books.ts`); modules/books picks one from the organisation's connection. What
// is pushed differs by package (Tally's purchase voucher, Zoho's bill), hence the `Doc` parameter.

/** A ledger (Tally) or contact/account (Zoho) of the company, as the mapping screen lists it. */
export interface BooksLedger {
  name: string;
  /** The group it sits under (`Sundry Creditors`, `Duties & Taxes`, `Purchase Accounts`, …). */
  parent: string | null;
  gstin: string | null;
}

/** A supplier ledger to create (under Sundry Creditors). */
export interface PartyLedgerInput {
  name: string;
  gstin: string | null;
  /** State name as Tally spells it (`Maharashtra`). */
  state: string | null;
  /** `Regular` with a GSTIN, `Unregistered` without. */
  registrationType: 'Regular' | 'Unregistered';
}

/** What the books answered to one push. */
export interface BooksAnswer {
  /** Nothing refused: the voucher (or ledgers) stand as sent. */
  ok: boolean;
  /** Tally's counters (CREATED, ALTERED, DELETED, CANCELLED, ERRORS, …), as numbers. */
  counters: Record<string, number>;
  /** The books' own id of the voucher (Tally's LASTVCHID / master id), when it says. */
  voucherId: string | null;
  /** The books' own error texts (Tally's LINEERROR), in its words. */
  errors: string[];
}

/** What to do with a voucher. */
export type PushAction = 'create' | 'alter' | 'cancel';

/** A connection refused or failed before the books could answer (wrong address, Tally closed, timeout). */
export class BooksUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BooksUnreachableError';
  }
}

/** What Bahi already knows of a document in the books when it pushes it again. */
export interface PushKnown {
  /** The books' id of what the last accepted push made (Zoho's bill_id), if any. */
  voucherId: string | null;
  /** The document's file, for packages that keep it with the entry (Zoho's bill attachment). */
  attachment?: () => Promise<{ fileName: string; contentType: string; bytes: Uint8Array } | null>;
}

/** One accounting package, reached with one organisation's settings. */
export interface BooksConnector<Doc = PurchaseVoucher> {
  /** The company's ledgers (the "Test connection"): throws `BooksUnreachableError` when it cannot ask. */
  listLedgers(): Promise<BooksLedger[]>;
  /** Creates supplier ledgers a person confirmed. */
  createPartyLedgers(parties: readonly PartyLedgerInput[]): Promise<BooksAnswer>;
  /** Sends one voucher (bill); the same document sent again replaces, never doubles, it. */
  pushVoucher(voucher: Doc, action: PushAction, known?: PushKnown): Promise<BooksAnswer>;
}
