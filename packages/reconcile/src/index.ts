export {
  DEFAULT_TOLERANCES,
  type InvoiceLineResult,
  type InvoiceResult,
  type MatchDocument,
  normalizeDocumentNumber,
  type PoResult,
  type Reason,
  reconcileDocuments,
  type Tolerances,
} from './reconcile.ts';
