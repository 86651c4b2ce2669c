import { type ExtractionValueKind, getFieldKind } from '@bahi/contracts/extraction';
import { runChecks } from './checks.ts';
import { parseValue } from './fields/values.ts';
import type { ValueKind } from './fields/vocabulary.ts';
import type { CheckResult, FieldValue, Provenance } from './result.ts';
import type { DocumentType } from './types.ts';

/** What the engine asks a field provider: the fields its rules left empty, and the document's text. */
export interface FieldRequest {
  documentType: DocumentType;
  /** Contract field names still null after the rules, in contract order. */
  missing: string[];
  /** The document's text in reading order, one printed line per line, pages separated by a form feed. */
  text: string;
  signal?: AbortSignal;
}

/**
 * An optional source of header values the rules could not find (for example a language model behind
 * an OpenAI-compatible endpoint). It is asked once per document and only for empty fields; what it
 * answers is read like printed text: a value that does not parse as its field's kind, or that
 * breaks a check that passed, is dropped. It never replaces a value the rules found.
 */
export interface FieldProvider {
  proposeFields(request: FieldRequest): Promise<Record<string, unknown>>;
}

/** The confidence of a provider's value: below the review threshold, whatever it says. */
export const PROVIDER_CONFIDENCE = 0.6;

const READER_BY_FIELD: Record<string, ValueKind> = {
  irn: 'irn',
  ackNumber: 'ack',
  ewayBillNumber: 'eway',
  vehicleNumber: 'vehicle',
};
const READER_BY_KIND: Record<ExtractionValueKind, ValueKind | null> = {
  date: 'date',
  money: 'money',
  gstin: 'gstin',
  stateCode: 'state',
  code: 'docno',
  text: 'text',
  currency: 'currency',
  quantity: null,
  percent: null,
};

/** Read a provider's answer for a field with the engine's own value reader, or null. */
export function readProvidedValue(type: DocumentType, field: string, raw: unknown): FieldValue {
  if (raw === null || raw === undefined) return null;
  const kind = getFieldKind(type, field);
  const reader = READER_BY_FIELD[field] ?? (kind ? READER_BY_KIND[kind] : null);
  if (!reader) return null;
  const text = String(raw).trim();
  if (!text) return null;
  const parsed = parseValue(reader, text);
  if (!parsed) return null;
  // The whole answer must be the value: "INV-1 or INV-2" is not a document number.
  if (reader !== 'text' && text.length - (parsed.end - parsed.start) > 2) return null;
  return parsed.value;
}

/** The interpretation a provider may complete: changed in place. */
export interface Completable {
  fields: Record<string, FieldValue>;
  lineItems: Array<Record<string, unknown>>;
  checks: CheckResult[];
  confidence: Record<string, number>;
  provenance: Record<string, Provenance>;
  wordsAmount: number | null;
}

const failing = (checks: CheckResult[]) => checks.filter((c) => !c.ok).length;

/**
 * Ask the provider for the fields still empty and keep each answer that reads as its kind and
 * does not make a check fail that passed without it. Returns the fields filled.
 */
export async function completeWithProvider(
  provider: FieldProvider,
  type: DocumentType,
  text: string,
  result: Completable,
  signal?: AbortSignal,
): Promise<string[]> {
  const missing = Object.keys(result.fields).filter((f) => result.fields[f] === null);
  if (!missing.length) return [];
  const answers = await provider.proposeFields({ documentType: type, missing, text, signal });
  const filled: string[] = [];
  let fields = result.fields;
  let checks = runChecks(type, fields, result.lineItems, result.wordsAmount);
  for (const f of missing) {
    const value = readProvidedValue(type, f, answers[f]);
    if (value === null) continue;
    const next = { ...fields, [f]: value };
    const nextChecks = runChecks(type, next, result.lineItems, result.wordsAmount);
    if (failing(nextChecks) > failing(checks)) continue;
    fields = next;
    checks = nextChecks;
    filled.push(f);
  }
  if (!filled.length) return [];
  for (const f of filled) {
    result.fields[f] = fields[f]!;
    result.confidence[f] = PROVIDER_CONFIDENCE;
    result.provenance[f] = { page: 1, bbox: [0, 0, 0, 0], source: 'llm' };
  }
  // The checks reported are those of the completed document; the QR check stays as it was.
  const qr = result.checks.filter((c) => c.code === 'qr_matches_printed');
  result.checks.splice(0, result.checks.length, ...checks, ...qr);
  return filled;
}
