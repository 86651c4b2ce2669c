import { type ExtractionDocumentType, getExtractionProfile } from '@bahi/contracts';
import { type ExtractionResult, type FieldValue, recheckResult } from '@bahi/engine';

/**
 * A person's corrections outlive the reading they were made on: when a document is read again
 * (re-process), the latest value a person gave each field is laid over the new reading, so a re-run never
 * overwrites a correction. The engine's own reading is kept beside it (`documents.extracted`).
 */

/** The latest value a person gave each field (`total`, `lineItems.2.amount`), from the trail, oldest first. */
export function collectLatestCorrections(
  events: ReadonlyArray<{ kind: string; field: string | null; newValue: unknown }>,
): Map<string, FieldValue> {
  const latest = new Map<string, FieldValue>();
  for (const e of events) {
    if (e.kind !== 'corrected' || !e.field) continue;
    const v = e.newValue;
    latest.set(e.field, typeof v === 'string' || typeof v === 'number' ? v : null);
  }
  return latest;
}

/**
 * Lay corrections over an engine reading: header fields of the type, and line cells of lines the new
 * reading still has (a correction of a line the new reading lost cannot apply and is left out). The
 * checks run again on the result; corrected values are fully sure. Null when none applies.
 */
export function applyCorrections(
  result: ExtractionResult,
  latest: Map<string, FieldValue>,
): ExtractionResult | null {
  if (latest.size === 0 || result.error) return null;
  const type: ExtractionDocumentType = result.documentType ?? 'invoice';
  const profile = getExtractionProfile(type);
  const fields = { ...result.fields };
  const confidence = { ...result.confidence };
  const lineItems = result.lineItems.map((line) => ({ ...line }));
  let applied = 0;
  for (const [key, value] of latest) {
    const cell = /^lineItems\.(\d+)\.(\w+)$/.exec(key);
    if (cell) {
      const line = lineItems[Number(cell[1]) - 1];
      if (!line || !profile.lineFields.some((f) => f.name === cell[2])) continue;
      line[cell[2]!] = value;
      applied++;
    } else if (profile.headerFields.some((f) => f.name === key)) {
      fields[key] = value;
      confidence[key] = 1;
      applied++;
    }
  }
  if (applied === 0) return null;
  return { ...result, fields, lineItems, confidence, checks: recheckResult(result, fields, lineItems) };
}

/** The corrected fields whose current value is still the one a person gave. */
export function listCorrectedFields(
  current: ExtractionResult | null,
  latest: Map<string, FieldValue>,
): string[] {
  if (!current) return [];
  const out: string[] = [];
  for (const [key, value] of latest) {
    const cell = /^lineItems\.(\d+)\.(\w+)$/.exec(key);
    const now = cell ? current.lineItems[Number(cell[1]) - 1]?.[cell[2]!] : current.fields[key];
    if ((now ?? null) === value) out.push(key);
  }
  return out;
}
