/**
 * Learning from a correction: given a document's pages and the values a person confirmed, remember
 * the issuer's own constants (its name, GSTIN, address, state) and, for every other field, the
 * label beside the value and where the value stands — only where reading the page that way gives
 * the corrected value back.
 */
import { isLabelText, matchStart } from '../fields/labels.ts';
import { GENERIC_DATE } from '../fields/vocabulary.ts';
import { interpretDocument } from '../interpret.ts';
import { buildLayout } from '../layout.ts';
import { profileOf } from '../profiles/index.ts';
import type { FieldValue } from '../result.ts';
import type { DocumentType, PageContent } from '../types.ts';
import { clearsAsAbsent } from './absent.ts';
import { type FoundRecipe, readingKind, recipesFor } from './reading.ts';
import type { FieldRecipe, IssuerMemory, LessonSource } from './types.ts';

/** The party who prints a document of this type. */
export function issuerRole(type: DocumentType): 'vendor' | 'buyer' {
  return profileOf(type).issuer;
}

/** The fields that belong to the issuer and stay the same on everything it prints. */
export function issuerConstantFields(type: DocumentType): string[] {
  const p = issuerRole(type);
  return [`${p}Name`, `${p}Gstin`, `${p}Address`, `${p}StateCode`];
}

/** The key a party is remembered by: its GSTIN, else the letters and digits of its name. */
export function partyKey(gstin: FieldValue | undefined, name: FieldValue | undefined): string | null {
  if (typeof gstin === 'string' && /^[0-9]{2}[A-Z0-9]{13}$/.test(gstin)) return `gstin:${gstin}`;
  if (typeof name === 'string') {
    const n = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
    if (n.length >= 4) return `name:${n}`;
  }
  return null;
}

/**
 * Fields memory never learns: the e-invoice's own identifiers come from its signed QR, and the
 * currency is the contract's default unless printed.
 */
const NOT_LEARNED = new Set(['irn', 'ackNumber', 'ackDate', 'currency']);

/** Longest label a recipe may anchor on: longer runs are two labels OCR ran together. */
const MAX_ANCHOR_WORDS = 4;

/**
 * Whether an anchor can serve on the issuer's next documents: a few words of at least four letters
 * in all, none of them the document's own data (a buyer's city under which its GSTIN happened to
 * stand changes with the buyer).
 */
function stableAnchor(anchor: string, dataWords: Set<string>): boolean {
  const words = anchor.split(' ');
  if (words.length > MAX_ANCHOR_WORDS || anchor.replace(/ /g, '').length < 4) return false;
  return words.filter((w) => dataWords.has(w)).length * 2 < words.length;
}

/** The words of a document's text values (names, addresses, terms): what changes from paper to paper. */
function dataWordsOf(fields: Record<string, FieldValue>): Set<string> {
  const out = new Set<string>();
  for (const v of Object.values(fields))
    if (typeof v === 'string' && /\s/.test(v.trim()))
      for (const w of v.toLowerCase().split(/[^a-z]+/)) if (w.length >= 3) out.add(w);
  return out;
}

/**
 * Best recipe first. A value can often be read back several ways (an invoice dated the day the
 * goods arrived is read back from "GRN Date" too): the field's own label wins, then where the
 * rules read it (their provenance, when they were right), then any other label that is no other
 * field's; then a value in the label's own cell, beside it, under it; a label that repeats less.
 */
function rank(
  type: DocumentType,
  field: string,
  r: FoundRecipe,
  ruleBox: [number, number, number, number] | null,
): number {
  const specs = profileOf(type).fieldSpecs;
  const own = specs.find((s) => s.field === field);
  const ownLabel = own && matchStart(r.anchor, own.labels) !== null;
  const otherLabel = specs.some((s) => s.field !== field && matchStart(r.anchor, s.labels) !== null);
  const atRule = ruleBox !== null && r.boxes.some((b) => overlaps(b, ruleBox));
  const order = { inline: 0, right: 1, below: 2 }[r.relation];
  return (
    (ownLabel ? 0 : otherLabel ? 40 : isLabelText(r.anchor, type) ? 10 : 20) -
    (atRule ? 5 : 0) +
    order +
    Math.min(r.fromStart, r.fromEnd) * 0.1
  );
}

const overlaps = (a: number[], b: number[]) =>
  a[0]! < b[2]! && b[0]! < a[2]! && a[1]! < b[3]! && b[1]! < a[3]!;

/**
 * What a correction teaches about its issuer, merged into what was known (`known`, or nothing).
 * Returns null when the corrected values do not say who the issuer is.
 */
export function learnFromCorrection(input: {
  pages: PageContent[];
  type: DocumentType;
  fields: Record<string, FieldValue>;
  known: IssuerMemory | null;
  /** Where the rules read each field (the corrected result's provenance), to prefer that place. */
  provenance?: Record<string, { page: number; bbox: [number, number, number, number] }>;
  /** Fields the person changed: a forgotten field they correct again is learned again. */
  taught?: string[];
  /** The corrected line items, when the correction covers them. */
  lineItems?: Array<Record<string, unknown>>;
  learnedAt?: string;
}): IssuerMemory | null {
  const { pages, type, fields, known } = input;
  const role = issuerRole(type);
  const key = partyKey(fields[`${role}Gstin`], fields[`${role}Name`]);
  if (!key) return null;
  const from: LessonSource = {
    documentNumber: typeof fields.documentNumber === 'string' ? fields.documentNumber : null,
    learnedAt: input.learnedAt ?? new Date().toISOString(),
  };
  const memory: IssuerMemory = known
    ? { ...known, recipes: { ...known.recipes }, constants: { ...known.constants } }
    : { version: 1, type, key, issuerName: null, recipes: {}, constants: {} };
  const forgotten = new Set(memory.forgotten ?? []);
  // A correction made before a person's "forget" of the field (its lesson learned late, or again
  // after the forget was saved) does not bring the field back: only a later correction does.
  const forgottenAt = memory.forgottenAt ?? {};
  for (const f of input.taught ?? [])
    if (!(forgottenAt[f] && forgottenAt[f] > from.learnedAt)) forgotten.delete(f);
  memory.forgotten = [...forgotten];
  if (memory.forgottenAt)
    memory.forgottenAt = Object.fromEntries(Object.entries(forgottenAt).filter(([f]) => forgotten.has(f)));
  const constants = new Set(issuerConstantFields(type));
  for (const f of constants) {
    const v = fields[f];
    if (typeof v === 'string' && v.trim() && !forgotten.has(f)) memory.constants[f] = { value: v, from };
  }
  if (typeof fields[`${role}Name`] === 'string') memory.issuerName = fields[`${role}Name`] as string;
  const layout = buildLayout(pages);
  const dataWords = dataWordsOf(fields);
  for (const [f, v] of Object.entries(fields)) {
    if (constants.has(f) || NOT_LEARNED.has(f) || forgotten.has(f) || v === null || v === '') continue;
    const kind = readingKind(type, f);
    const ruleBox = input.provenance?.[f]?.bbox ?? null;
    const best = recipesFor(layout, kind, v)
      .filter((r) => stableAnchor(r.anchor, dataWords))
      // A bare "Date"/"Dated" stands beside every number on a header (the order's, the challan's):
      // which one it is depends on its row, which a label alone cannot say. Only the document's own date.
      .filter((r) => f === 'documentDate' || !GENERIC_DATE.test(r.anchor))
      .sort((a, b) => rank(type, f, a, ruleBox) - rank(type, f, b, ruleBox))[0];
    // A value the page cannot give back by any label is not learned (nor is an older recipe kept
    // that no longer reads this issuer's paper).
    if (!best) {
      delete memory.recipes[f];
      continue;
    }
    const own = profileOf(type).fieldSpecs.find((s) => s.field === f);
    const prior = memory.recipes[f];
    const same = prior && prior.anchor === best.anchor && prior.relation === best.relation;
    // Learning the same document again (a job run twice, a second correction of it) confirms nothing.
    const again = !!prior && prior.from.documentNumber === from.documentNumber;
    const recipe: FieldRecipe = {
      anchor: best.anchor,
      relation: best.relation,
      kind: best.kind,
      fromStart: best.fromStart,
      fromEnd: best.fromEnd,
      at: best.at,
      ownLabel: !!own && matchStart(best.anchor, own.labels) !== null,
      confirmed: same ? (prior.confirmed ?? 0) + (again ? 0 : 1) : 0,
    };
    memory.recipes[f] = { ...recipe, from };
  }
  if (input.lineItems?.length) {
    const corrected = input.lineItems;
    const ruled = interpretDocument(pages, type, null).lineItems as Array<Record<string, unknown>>;
    // A field learned absent stays absent until a person keeps a value recall would have cleared.
    const kept = (k: string) =>
      ruled.some((l, i) => clearsAsAbsent(ruled, l, k) && present(corrected[i]?.[k]));
    memory.absentLineFields = [
      ...new Set([...(memory.absentLineFields ?? []), ...unprintedLineFields(corrected)]),
    ]
      .filter((k) => !kept(k))
      .sort();
    memory.lineUnits = learnUnits(memory.lineUnits ?? [], corrected);
  }
  return memory;
}

/** Most units kept per issuer: its paper uses a handful. */
const MAX_UNITS = 24;

/** The units this issuer's corrected lines print ("Nos", "Box", "Mtr"), newest first. */
function learnUnits(known: string[], corrected: Array<Record<string, unknown>>): string[] {
  const units = corrected
    .map((l) => l.unit)
    .filter((u): u is string => typeof u === 'string' && u.trim() !== '')
    .map((u) => u.trim());
  return [...new Set([...units, ...known])].slice(0, MAX_UNITS);
}

/**
 * Line fields the person emptied on every line: what this issuer's paper does not print (no rate
 * column). Recall clears only values the rules derived there (a document rate spread over the
 * lines), never one read from a cell, so a document whose lines did not need the field this time
 * cannot hide a column a later one prints.
 */
function unprintedLineFields(corrected: Array<Record<string, unknown>>): string[] {
  const names = new Set(corrected.flatMap((l) => Object.keys(l)).filter((k) => k !== 'provenance'));
  // Only an explicit empty counts: a correction that does not mention a field says nothing of it.
  return [...names]
    .filter((k) => corrected.every((l) => k in l && (l[k] === null || l[k] === undefined)))
    .sort();
}

/**
 * Forget what was learned for a field of this issuer (a person's "forget" on the review screen):
 * its recipe or constant goes, and the field is not learned again until taught anew by a
 * correction of that field made after `at` (now).
 */
export function forgetField(
  memory: IssuerMemory,
  field: string,
  at = new Date().toISOString(),
): IssuerMemory {
  const recipes = { ...memory.recipes };
  const constants = { ...memory.constants };
  delete recipes[field];
  delete constants[field];
  const forgotten = [...new Set([...(memory.forgotten ?? []), field])];
  return { ...memory, recipes, constants, forgotten, forgottenAt: { ...memory.forgottenAt, [field]: at } };
}

/** Whether a corrected value is there (not null, not left out). */
function present(value: unknown): boolean {
  return value !== null && value !== undefined;
}
