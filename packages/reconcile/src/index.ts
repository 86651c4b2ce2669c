export {
  applyTolerances,
  DEFAULT_TOLERANCES,
  type InvoiceLineResult,
  type InvoiceResult,
  type MatchDocument,
  type MatchOptions,
  normalizeDocumentNumber,
  type PoResult,
  type Reason,
  reconcileDocuments,
  type Tolerances,
} from './reconcile.ts';
