/**
 * Recalling memory on a new document: who printed it (a GSTIN on the page, else the name read),
 * then that issuer's constants and recipes applied over what the rules read. A learned reading
 * replaces a rule's only where the rule's value is not vouched for by the QR or the arithmetic,
 * and every value from memory says which correction taught it.
 */

import { findGstins } from '../fields/values.ts';
import type { Layout } from '../layout.ts';
import type { FieldValue, Provenance } from '../result.ts';
import { UNIT_WORD } from '../tables/vocabulary.ts';
import type { DocumentType } from '../types.ts';
import { clearsAsAbsent } from './absent.ts';
import { issuerRole, partyKey } from './learn.ts';
import { pickReading, placeIsAmbiguous, readAll, sameValue } from './reading.ts';
import type { IssuerMemory, MemoryStore } from './types.ts';

/** Every key the document's issuer could be remembered by: each GSTIN printed, then the name read. */
export function issuerKeys(layout: Layout, type: DocumentType, fields: Record<string, FieldValue>): string[] {
  const role = issuerRole(type);
  const keys: string[] = [];
  const own = partyKey(fields[`${role}Gstin`], null);
  if (own) keys.push(own);
  // The other party's GSTIN, as the rules read it, never names the issuer.
  const other = fields[`${role === 'vendor' ? 'buyer' : 'vendor'}Gstin`];
  for (const seg of layout.segments)
    for (const g of findGstins(seg.text)) if (g.valid && g.value !== other) keys.push(`gstin:${g.value}`);
  const byName = partyKey(null, fields[`${role}Name`]);
  if (byName) keys.push(byName);
  return [...new Set(keys)];
}

/** Find the issuer's memory in the store. */
export async function recallIssuer(
  store: MemoryStore,
  layout: Layout,
  type: DocumentType,
  fields: Record<string, FieldValue>,
): Promise<IssuerMemory | null> {
  return store.recall(type, issuerKeys(layout, type, fields));
}

/** Confidence of a learned reading that the rules did not read the same. */
const LEARNED = 0.88;
/** Confidence of a reading the rules and memory agree on, or an issuer's own constant. */
const AGREED = 0.95;
/** At or above this a rule's value is vouched for (QR, arithmetic, words) and memory leaves it. */
const VOUCHED = 0.97;
/** The server's review line: a rule's reading at or above it is one the rules are sure enough of. */
const REVIEW_LINE = 0.8;
/** A rule's reading that an unconfirmed lesson contradicts: a person looks. */
const DOUBTED = 0.7;

/** The parts of a result memory works on. */
export interface Recallable {
  fields: Record<string, FieldValue>;
  confidence: Record<string, number>;
  provenance: Record<string, Provenance>;
  lineItems?: Array<Record<string, unknown>>;
}

/**
 * Apply an issuer's memory to a result in place. Returns the fields memory set or confirmed.
 */
export function applyMemory(layout: Layout, memory: IssuerMemory, result: Recallable): string[] {
  const touched: string[] = [];
  const { fields, confidence, provenance } = result;
  const fallback = provenance[Object.keys(provenance)[0] ?? ''];
  const set = (
    field: string,
    value: FieldValue,
    lesson: { where?: Omit<Provenance, 'learnedFrom'>; from: string | null; sureness: number },
  ) => {
    if (!(field in fields)) return;
    const vouched = (confidence[field] ?? 0) >= VOUCHED || provenance[field]?.source === 'qr';
    const agrees = fields[field] !== null && String(fields[field]) === String(value);
    if (vouched && !agrees) return;
    touched.push(field);
    if (agrees) {
      // The rules read it too: surer, but it did not come from memory.
      confidence[field] = Math.max(confidence[field] ?? 0, AGREED);
      return;
    }
    fields[field] = value;
    confidence[field] = lesson.sureness;
    const base = lesson.where ?? provenance[field] ?? fallback;
    if (base) provenance[field] = { ...base, learnedFrom: lesson.from };
  };
  // The issuer's own constants are as sure as the issuer is known; a recipe's reading a little less.
  for (const [field, c] of Object.entries(memory.constants))
    set(field, c.value, { from: c.from.documentNumber, sureness: AGREED });
  for (const [field, recipe] of Object.entries(memory.recipes)) {
    const all = readAll(layout, recipe);
    const pick = pickReading(layout, all, recipe);
    const confirmed = (recipe.confirmed ?? 0) >= 1;
    if (!pick || (!confirmed && placeIsAmbiguous(layout, all, recipe))) continue;
    const value = pick.value;
    if (fields[field] !== null && sameValue(recipe.kind, fields[field] ?? null, value)) {
      // The rules read what memory reads: surer, and still the rules' reading.
      confidence[field] = Math.max(confidence[field] ?? 0, AGREED);
      touched.push(field);
      continue;
    }
    // A first lesson under a label the vocabulary does not give this field fills what the rules
    // left empty or unsure; over a reading the rules are sure of, it only raises a doubt.
    const trusted = recipe.ownLabel || confirmed;
    if (!trusted && fields[field] !== null && (confidence[field] ?? 0) >= REVIEW_LINE) {
      confidence[field] = Math.min(confidence[field]!, DOUBTED);
      continue;
    }
    set(field, value, {
      where: { page: pick.page, bbox: pick.bbox, source: pick.source },
      from: recipe.from.documentNumber,
      sureness: LEARNED,
    });
  }
  snapUnits(result.lineItems ?? [], memory.lineUnits ?? [], touched);
  const lines = result.lineItems ?? [];
  for (const name of memory.absentLineFields ?? [])
    for (const line of lines)
      if (clearsAsAbsent(lines, line, name)) {
        line[name] = null;
        if (!touched.includes(`lineItems.${name}`)) touched.push(`lineItems.${name}`);
      }
  return touched;
}

/** Edits (insert, delete, substitute) between two short words, case-insensitive. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

/**
 * A line's unit OCR misread ("Bex" for "Box") is the issuer's known unit it is one edit from (two
 * for a unit of five letters or more), when exactly one known unit is that close and the reading is
 * no unit of its own.
 */
function snapUnits(lines: Array<Record<string, unknown>>, units: string[], touched: string[]): void {
  if (!units.length) return;
  for (const line of lines) {
    const u = line.unit;
    if (typeof u !== 'string' || units.some((k) => k.toLowerCase() === u.toLowerCase())) continue;
    // A real unit ("Ltr" beside a known "Mtr") is what the paper says, not a slip.
    if (UNIT_WORD.test(u)) continue;
    const reach = u.length >= 5 ? 2 : 1;
    const near = units.filter((k) => editDistance(k, u) <= reach);
    if (near.length !== 1) continue;
    line.unit = near[0]!;
    if (!touched.includes('lineItems.unit')) touched.push('lineItems.unit');
  }
}
