import {
  CRITICAL_FIELDS,
  type DocumentReview,
  describeCheck,
  type ExtractionDocumentType,
  type ExtractionFieldSpec,
  type ExtractionValueKind,
  extractionDocumentTypes,
  getExtractionProfile,
  toFlowDocumentType,
  toLineCellKey,
} from '@bahi/contracts';
import { formatIndianDate, formatIndianNumber } from '@bahi/india';

/** Below this confidence a value asks for a look (the server's review rule uses the same figure). */
export const LOOK_CONFIDENCE = 0.8;

/** Where a value came from, as the review screen names it. */
export type ValueSource = 'text' | 'ocr' | 'qr' | 'llm' | 'corrected' | 'none';

/** A box on a page, in the page's points. */
export interface FieldBox {
  page: number;
  bbox: [number, number, number, number];
}

/** One value on the review screen: a header field or a line cell. */
export interface ReviewValue {
  /** `total`, or `lineItems.2.amount`. */
  key: string;
  label: string;
  kind: ExtractionValueKind;
  value: string | number | null;
  confidence: number | null;
  source: ValueSource;
  box: FieldBox | null;
  /** Why a person should look at it, in words (failed checks, missing, low confidence); empty when fine. */
  problems: string[];
  /**
   * When the value was read with what Bahi learned from a person's correction of this issuer's paper:
   * the number of the document corrected (null when it had none). Null for a value read by the rules alone.
   */
  lesson: { from: string | null } | null;
}

/** A group of header fields as the screen shows them. */
export interface FieldGroup {
  title: string;
  values: ReviewValue[];
  /** Folded until opened (the fields a checker rarely needs); opened by itself when one asks for a look. */
  folded: boolean;
}

/**
 * The fields a checker looks at first, in the order they read a bill: what it is, from whom, how much.
 * The rest are folded under "More fields".
 */
export const KEY_FIELDS = [
  'documentNumber',
  'documentDate',
  'vendorName',
  'vendorGstin',
  'poNumber',
  'taxableValue',
  'cgst',
  'sgst',
  'igst',
  'total',
] as const;

interface ResultShape {
  documentType?: string | null;
  fields?: Record<string, string | number | null>;
  lineItems?: Array<
    Record<string, unknown> & { provenance?: Record<string, FieldBox & { source?: string }> }
  >;
  checks?: Array<{ code: string; field: string | null; ok: boolean; message: string }>;
  confidence?: Record<string, number>;
  provenance?: Record<string, FieldBox & { source?: string; learnedFrom?: string | null }>;
}

const GROUPS: Array<{ title: string; test: (name: string) => boolean }> = [
  { title: 'Parties', test: (n) => /^(vendor|buyer)/.test(n) },
  {
    title: 'Amounts',
    test: (n) =>
      ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff', 'total', 'currency'].includes(n),
  },
  { title: 'Document', test: () => true },
];

/** The extraction type of a reviewed document (the engine's, else an invoice). */
export function getReviewType(review: DocumentReview): ExtractionDocumentType {
  const type = (review.document.extraction as ResultShape | null)?.documentType;
  return (extractionDocumentTypes as readonly string[]).includes(type ?? '')
    ? (type as ExtractionDocumentType)
    : 'invoice';
}

function sourceOf(
  key: string,
  corrected: Set<string>,
  provenance: { source?: string } | undefined,
): ValueSource {
  if (corrected.has(key)) return 'corrected';
  const s = provenance?.source;
  return s === 'text' || s === 'ocr' || s === 'qr' || s === 'llm' ? s : 'none';
}

/** The failed checks of a document by the field they concern, in words. */
function problemsByField(result: ResultShape): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const check of result.checks ?? []) {
    if (check.ok || !check.field) continue;
    const words = check.message
      ? `${describeCheck(check.code)}: ${check.message}`
      : describeCheck(check.code);
    // A GRN line's check names its line (`lineItems[0]`): it belongs to that line's quantities.
    const line = /^lineItems\[(\d+)\]$/.exec(check.field);
    const key = line ? toLineCellKey(Number(line[1]) + 1, 'acceptedQuantity') : check.field;
    out.set(key, [...(out.get(key) ?? []), words]);
  }
  return out;
}

/** The header fields of a reviewed document, grouped, each with its confidence, source, box and problems. */
export function buildFieldGroups(review: DocumentReview): FieldGroup[] {
  const result = (review.document.extraction ?? {}) as ResultShape;
  const type = getReviewType(review);
  const corrected = new Set(review.corrected);
  const problems = problemsByField(result);
  const critical = new Set(CRITICAL_FIELDS[toFlowDocumentType(type)]);
  const toValue = (spec: ExtractionFieldSpec): ReviewValue => {
    const value = result.fields?.[spec.name] ?? null;
    const confidence = result.confidence?.[spec.name] ?? null;
    const list = [...(problems.get(spec.name) ?? [])];
    if (value === null && critical.has(spec.name)) list.push('Not read: the document needs it');
    if (value !== null && confidence !== null && confidence < LOOK_CONFIDENCE && !corrected.has(spec.name))
      list.push('Read with low confidence');
    const p = result.provenance?.[spec.name];
    return {
      key: spec.name,
      label: spec.label,
      kind: spec.kind,
      value,
      confidence,
      source: value === null ? 'none' : sourceOf(spec.name, corrected, p),
      box: p?.bbox ? { page: p.page, bbox: p.bbox } : null,
      problems: list,
      // A value a person typed is theirs, whatever taught the reading it replaced.
      lesson:
        value !== null && p && p.learnedFrom !== undefined && !corrected.has(spec.name)
          ? { from: p.learnedFrom }
          : null,
    };
  };
  const specs = getExtractionProfile(type).headerFields;
  const key = KEY_FIELDS.map((name) => specs.find((s) => s.name === name))
    .filter((s) => s !== undefined)
    .map(toValue);
  const rest = specs.filter((s) => !(KEY_FIELDS as readonly string[]).includes(s.name)).map(toValue);
  // The folded rest keeps the order of the grouped form: document, parties, amounts.
  const order = (v: ReviewValue) => [2, 0, 1][GROUPS.findIndex((g) => g.test(v.key))] ?? 2;
  rest.sort((a, b) => order(a) - order(b));
  return [
    { title: 'Key fields', values: key, folded: false },
    { title: 'More fields', values: rest, folded: true },
  ].filter((g) => g.values.length > 0);
}

/** The line items of a reviewed document as rows of cells, in the type's line columns. */
export function buildLineRows(review: DocumentReview): {
  columns: ExtractionFieldSpec[];
  rows: ReviewValue[][];
} {
  const result = (review.document.extraction ?? {}) as ResultShape;
  const columns = [...getExtractionProfile(getReviewType(review)).lineFields];
  const corrected = new Set(review.corrected);
  const problems = problemsByField(result);
  const rows = (result.lineItems ?? []).map((line, i) =>
    columns.map((spec): ReviewValue => {
      const key = toLineCellKey(i + 1, spec.name);
      const raw = line[spec.name];
      const value = typeof raw === 'string' || typeof raw === 'number' ? raw : null;
      const p = line.provenance?.[spec.name];
      return {
        key,
        label: `Line ${i + 1} ${spec.label}`,
        kind: spec.kind,
        value,
        confidence: null,
        source: value === null ? 'none' : sourceOf(key, corrected, p),
        box: p?.bbox ? { page: p.page, bbox: p.bbox } : null,
        problems: problems.get(key) ?? [],
        lesson: null,
      };
    }),
  );
  return { columns, rows };
}

/** A stored value as a person types it: dates DD/MM/YYYY, amounts with Indian grouping. */
export function formatInputValue(kind: ExtractionValueKind, value: string | number | null): string {
  if (value === null) return '';
  if (kind === 'date' && typeof value === 'string') return formatIndianDate(value) ?? value;
  if (kind === 'money' && typeof value === 'number') return formatIndianNumber(value);
  return String(value);
}

/**
 * The key of the next value that asks for a look after `fromKey` (in screen order), wrapping round;
 * null when none does. Tab and Enter use it so a reviewer jumps from problem to problem.
 */
export function findNextLook(values: ReviewValue[], fromKey: string | null): string | null {
  const flagged = values.filter((v) => v.problems.length > 0);
  if (flagged.length === 0) return null;
  const at = fromKey ? values.findIndex((v) => v.key === fromKey) : -1;
  const after = flagged.find((v) => values.indexOf(v) > at);
  return (after ?? flagged[0]!).key;
}

/** Where a learned value came from, in words: "Learned from your correction on INV-0142". */
export function describeLesson(lesson: { from: string | null }): string {
  return lesson.from
    ? `Learned from your correction on ${lesson.from}`
    : 'Learned from your correction of an earlier document from the same sender';
}

/** How a source is named on screen. */
export const SOURCE_LABELS: Record<ValueSource, string> = {
  text: 'Text',
  ocr: 'OCR',
  qr: 'QR',
  llm: 'AI',
  corrected: 'Corrected',
  none: '—',
};

/** A trail entry's field in words: "Total", "Line 2 · Amount". */
export function describeFieldKey(type: ExtractionDocumentType, key: string): string {
  const cell = /^lineItems\.(\d+)\.(\w+)$/.exec(key);
  const profile = getExtractionProfile(type);
  if (cell) {
    const spec = profile.lineFields.find((f) => f.name === cell[2]);
    return `Line ${cell[1]} · ${spec?.label ?? cell[2]}`;
  }
  return profile.headerFields.find((f) => f.name === key)?.label ?? key;
}
