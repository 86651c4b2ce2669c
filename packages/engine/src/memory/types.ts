/**
 * Memory from corrections: what Bahi learned about one issuer's paper from a person's corrections,
 * so that issuer's next documents are read the way the person read the last one. The issuer is
 * whoever prints the document: the vendor of an invoice, the buying company of a PO or GRN.
 */
import type { ValueKind } from '../fields/vocabulary.ts';
import type { DocumentType } from '../types.ts';

/** Where a value sits relative to the words that label it. */
export type Relation = 'inline' | 'right' | 'below';

/** How to find one field on this issuer's paper: the label beside it and where the value stands. */
export interface FieldRecipe {
  /** The label's letters, lower case, single spaces ("invoice no", "dated", "bill to"). */
  anchor: string;
  relation: Relation;
  /** How the value is read once found. */
  kind: ValueKind;
  /**
   * Which of the label's readings it was, counted from the first and from the last: a header
   * field keeps its place from the top, a total its place from the end (tables grow between).
   */
  fromStart: number;
  fromEnd: number;
  /**
   * Where the label stood: 1-based page and its top-left as shares of the page's width and
   * height. A header field is found again by place (OCR may miss a repeat of its label and shift
   * the count); a figure under a table, whose place moves with the table, by its count from the end.
   */
  at?: { page: number; x: number; y: number };
  /** The label is one the vocabulary knows for this very field ("Invoice No" for the number). */
  ownLabel?: boolean;
  /** How many later corrections this recipe read right again: a confirmed recipe may overrule the rules. */
  confirmed?: number;
}

/** A value that is the issuer's own and the same on every document it prints (its name, GSTIN…). */
export interface LearnedConstant {
  value: string;
}

/** The document a lesson was learned from, named as a person would ("INV-0142"). */
export interface LessonSource {
  documentNumber: string | null;
  learnedAt: string;
}

/** Everything learned about one issuer of one document type. */
export interface IssuerMemory {
  version: 1;
  type: DocumentType;
  /** The issuer's key: `gstin:<GSTIN>` or `name:<letters and digits of its name>`. */
  key: string;
  issuerName: string | null;
  /** Per field: how to find it, with the document it was learned from. */
  recipes: Record<string, FieldRecipe & { from: LessonSource }>;
  /** Per field: the issuer's own constant values. */
  constants: Record<string, LearnedConstant & { from: LessonSource }>;
  /** Fields a person asked Bahi to forget: never learned again until taught anew. */
  forgotten?: string[];
  /** When each forgotten field was forgotten (ISO): only a correction made later teaches it again. */
  forgottenAt?: Record<string, string>;
  /**
   * Line fields this issuer's paper does not print (every corrected line had none): a value the
   * rules derived there (a document rate spread over the lines) is not on the paper; a value read
   * from a cell is kept.
   */
  absentLineFields?: string[];
  /** The units this issuer's lines print, as people corrected them: an OCR slip of one is read as it. */
  lineUnits?: string[];
}

/**
 * Where memories are kept. The CLI keeps them in a folder; the server keeps them per organisation
 * in its database. `recall` is given every key the new document could be known by and returns the
 * memory of the first one it holds.
 */
export interface MemoryStore {
  recall(type: DocumentType, keys: string[]): Promise<IssuerMemory | null>;
  save(memory: IssuerMemory): Promise<void>;
}
