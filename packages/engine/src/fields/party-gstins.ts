import { stateByCode } from '@bahi/india';
import { boxOf, type Layout, type Segment } from '../layout.ts';
import { wordPhrases } from '../phrases.ts';
import { profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { type Candidate, wordsInSpan } from './header.ts';
import { OCR_DOUBT, withOcrDoubt } from './header-weights.ts';
import { columnLimit, headingRole, valueBesideHeading } from './party-block.ts';
import { GSTIN_READING_SCORE } from './party-weights.ts';
import { findGstins, GSTIN_LENGTH } from './values.ts';

/** Which party a place on the page speaks for. `issuer` is the letterhead: whoever wrote the document. */
export type PartyRole = 'vendor' | 'buyer' | 'shipTo' | 'issuer';

/** A GSTIN printed somewhere on the document, with the party its place on the page gives it. */
export interface GstinCandidate extends Candidate {
  /** The party, or null when nothing on the page says whose it is. */
  role: PartyRole | null;
  /** Passes the check character as printed (or after an OCR repair). */
  valid: boolean;
  repaired: boolean;
  /** Why the role was given: a label in the same phrase, a heading above, or the letterhead. */
  evidence: 'label' | 'heading' | 'letterhead';
}

/** A party heading ("Bill To", "Supplier", "Consignee (Ship to)") and the column it heads. */
interface RoleHeading {
  role: PartyRole;
  page: number;
  y0: number;
  /** The column under the heading: from its left edge to the next block's start. */
  x0: number;
  x1: number;
}

/** A GSTIN label: "GSTIN", "GSTIN/UIN", "GST No.", "GST Reg. No.", "GST Registration No.". */
const GSTIN_LABEL =
  /\b(?:gstin(?:\/uin)?|gst ?in|gst(?: reg(?:istration|d)?\.?)? ?(?:no|number|#)\.?)\s*[:\-.]*\s*$/i;

/** A transporter's id label ("Transport ID", "Transporter GSTIN", "TRANSIN") just before a GSTIN. */
const TRANSPORTER_ID = /\b(?:transport(?:er)?'?s?\s*(?:id|gstin|gst\s*no)|transin)\b[^A-Za-z]*$/i;

/** Role words that qualify a GSTIN label in the same phrase ("Buyer's GSTIN", "GSTIN of Supplier"). */
type RoleWord = PartyRole | 'counterparty' | 'self';
const ROLE_WORDS: Array<[RegExp, RoleWord]> = (
  [
    [['supplier', 'seller', 'vendor', 'sold by', 'billed by'], 'vendor'],
    [['buyer', 'recipient', 'receiver', 'customer', 'client', 'bill to', 'billed to', 'billing'], 'buyer'],
    [['consignee', 'ship to', 'shipped to', 'shipping', 'delivery'], 'shipTo'],
    [['party', 'your'], 'counterparty'],
    [['our', "company's", 'companys'], 'self'],
  ] as const
).map(([words, role]): [RegExp, RoleWord] => [wordPhrases(words), role]);

/** A label cell left of a GSTIN's is read with it when it ends no further left than this. */
const LABEL_CELL_REACH = 80;

/** Where a PAN's four digits stand in a GSTIN: after two of state code and five PAN letters. */
const PAN_DIGITS_IN_GSTIN = { from: 7, to: 11 } as const;

/** Ranks a GSTIN passing its check character above any failing one, whatever gave its party. */
const VALID_RANK = 10;

/** Horizontal slack (points) when deciding that a value sits in a heading's column. */
const COLUMN_SLACK = 24;

/** The party an issuer-relative role word means on this type of document. */
function resolveRoleWord(word: PartyRole | 'counterparty' | 'self', type: DocumentType): PartyRole {
  if (word === 'counterparty') return profileOf(type).issuer === 'vendor' ? 'buyer' : 'vendor';
  if (word === 'self') return 'issuer';
  return word;
}

/** Every party heading on the document, each with its column. */
export function findRoleHeadings(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
): RoleHeading[] {
  const out: RoleHeading[] = [];
  for (const s of layout.segments) {
    if (skip(s)) continue;
    const role = headingRole(s.text, type);
    if (!role) continue;
    const line = layout.lines[s.line]!;
    const i = line.segments.indexOf(s);
    // A heading with its value in the cell beside it ("M/S | name") heads that cell's column too.
    const from = valueBesideHeading(line, i, type) ? i + 1 : i;
    out.push({ role, page: s.page, y0: s.y0, x0: s.x0, x1: columnLimit(line, from, type) });
  }
  return out;
}

/** The role words written in the phrase just before a GSTIN (same segment, or the cell to its left). */
function roleFromLabel(before: string, type: DocumentType): PartyRole | null {
  for (const [re, word] of ROLE_WORDS) if (re.test(before)) return resolveRoleWord(word, type);
  return null;
}

/**
 * The heading whose column holds a point: the nearest heading above it (or on its line) on the
 * same page whose column spans it. A heading further up in the same column is an earlier block.
 */
function headingOver(headings: RoleHeading[], page: number, x: number, y: number): RoleHeading | null {
  let best: RoleHeading | null = null;
  for (const h of headings) {
    if (h.page !== page || h.y0 > y + 2) continue;
    if (x < h.x0 - COLUMN_SLACK || x >= h.x1 - 2) continue;
    if (!best || h.y0 > best.y0) best = h;
  }
  return best;
}

/**
 * Every GSTIN on the document with the party its place gives it. Finders only propose: a value
 * that passes its check character anywhere on the page, or a GSTIN-shaped code printed right after
 * a GSTIN label in the text layer (kept so the checks can report it). The role comes from a role
 * word in the label's phrase ("Buyer GSTIN"), else the party heading over its column, else — on
 * the first page, above the line items — the letterhead.
 */
export function findGstinCandidates(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
  tableTop: (page: number) => number,
): GstinCandidate[] {
  const headings = findRoleHeadings(layout, type, skip);
  const out: GstinCandidate[] = [];
  const firstPage = layout.pages[0]?.page ?? 1;
  for (const seg of layout.segments) {
    if (skip(seg)) continue;
    const line = layout.lines[seg.line]!;
    const left = line.segments[line.segments.indexOf(seg) - 1];
    const found: Array<{ value: string; start: number; end: number; valid: boolean; repaired: boolean }> =
      findGstins(seg.text).map((g) => ({
        value: String(g.value),
        start: g.start,
        end: g.end,
        valid: g.valid,
        repaired: g.repaired === true,
      }));
    if (!found.length) {
      // A code printed after a GSTIN label that fails its check character: on a text layer it is
      // what the document prints (the checks will say it is wrong); OCR misreads are not kept.
      if (seg.words[0]?.source !== 'text') continue;
      const labelled = labelledCode(seg.text, left?.text ?? null);
      if (labelled) found.push({ ...labelled, valid: false, repaired: false });
    }
    for (const g of found) {
      const words = wordsInSpan(seg, g.start, g.end);
      const bbox = boxOf(words);
      const before = `${left && seg.x0 - left.x1 < LABEL_CELL_REACH ? left.text : ''} ${seg.text.slice(0, g.start)}`;
      // The e-way bill's transporter is identified by its GSTIN: never a party to the invoice.
      if (TRANSPORTER_ID.test(before)) continue;
      let role: PartyRole | null = null;
      let evidence: GstinCandidate['evidence'] = 'label';
      const labelRole =
        GSTIN_LABEL.test(before.trim()) || before.toLowerCase().includes('gst')
          ? roleFromLabel(before, type)
          : null;
      if (labelRole) role = labelRole;
      else {
        const h = headingOver(headings, seg.page, bbox[0], bbox[1]);
        if (h) {
          role = h.role;
          evidence = 'heading';
        } else if (seg.page === firstPage && bbox[1] < tableTop(seg.page)) {
          role = 'issuer';
          evidence = 'letterhead';
        }
      }
      const ocr = words[0]?.source === 'ocr';
      const R = GSTIN_READING_SCORE;
      const base = g.valid ? (g.repaired ? R.repaired : R.valid) : R.failing;
      out.push({
        field: 'gstin',
        value: g.value,
        page: seg.page,
        bbox,
        source: ocr ? 'ocr' : 'text',
        score: withOcrDoubt(base, words, OCR_DOUBT.field),
        role,
        valid: g.valid,
        repaired: g.repaired,
        evidence,
      });
    }
  }
  return soleGstinIsIssuers(out, type);
}

/** How far the party of a GSTIN placed by no label, heading or letterhead is trusted. */
export const SOLE_GSTIN_CONFIDENCE = 0.7;

/**
 * A document that prints a single GSTIN, valid, with nothing on the page saying whose (a receipt's
 * footer): the issuer's. A buyer's GSTIN is printed beside the supplier's, never alone, so the one
 * GSTIN of an invoice is its supplier's; below review confidence, as only the rule places it.
 */
function soleGstinIsIssuers(found: GstinCandidate[], type: DocumentType): GstinCandidate[] {
  const values = new Set(found.map((c) => c.value));
  if (values.size !== 1 || profileOf(type).issuer !== 'vendor') return found;
  if (!found.every((c) => c.role === null && c.valid)) return found;
  return found.map((c) => ({
    ...c,
    role: 'issuer',
    evidence: 'letterhead',
    score: Math.min(c.score, SOLE_GSTIN_CONFIDENCE),
  }));
}

/** A 15-character code right after a GSTIN label in the same segment or the cell to its left. */
function labelledCode(
  text: string,
  leftText: string | null,
): { value: string; start: number; end: number } | null {
  const inSeg =
    /^(.*?\b(?:gstin(?:\/uin)?|gst ?in|gst(?: reg(?:istration|d)?\.?)? ?(?:no|number)\.?))\s*[:\-.]*\s*([A-Za-z0-9]{15})\b/i.exec(
      text,
    );
  const code = (m: RegExpExecArray, value: string) => {
    const start = m[0].length - GSTIN_LENGTH;
    return plausible(value) ? { value: value.toUpperCase(), start, end: start + GSTIN_LENGTH } : null;
  };
  if (inSeg?.[2]) return code(inSeg, inSeg[2]);
  if (leftText && GSTIN_LABEL.test(leftText.trim())) {
    const m = /^[:\-.\s]*([A-Za-z0-9]{15})\b/.exec(text);
    if (m?.[1]) return code(m, m[1]);
  }
  return null;
}

/** A GSTIN-like code: starts with a state code, mixes letters and digits the way a PAN does. */
function plausible(code: string): boolean {
  const c = code.toUpperCase();
  if (!stateByCode(c.slice(0, 2))) return false;
  const { from, to } = PAN_DIGITS_IN_GSTIN;
  return /[A-Z]/.test(c.slice(2, from)) && /\d/.test(c.slice(from, to));
}

/** The role of a candidate on this type of document: the letterhead is the vendor of an invoice, the buyer of a PO or GRN. */
function partyOf(c: GstinCandidate, type: DocumentType): 'vendor' | 'buyer' | null {
  if (c.role === 'issuer') return profileOf(type).issuer;
  return c.role === 'vendor' || c.role === 'buyer' ? c.role : null;
}

/** A PO's delivery address is the buyer's own site: its GSTIN is the buyer's when none other is. */
function isBuyersSite(c: GstinCandidate, type: DocumentType): boolean {
  return profileOf(type).shipToIsBuyers && c.role === 'shipTo';
}

const EVIDENCE_RANK: Record<GstinCandidate['evidence'], number> = { label: 3, heading: 2, letterhead: 1 };
/**
 * How sure the party of a GSTIN is, by what gave it: a role word in its label, a heading over its
 * column, the letterhead; the check character vouches for the reading, never for the party.
 */
const ROLE_CONFIDENCE: Record<GstinCandidate['evidence'] | 'block', number> = {
  label: 0.95,
  heading: 0.9,
  block: 0.9,
  letterhead: 0.85,
};

/**
 * Choose the supplier's and the buyer's GSTIN among the candidates, jointly: a GSTIN found in a
 * party's own block stands unless a labelled candidate gives it to the other party; otherwise the
 * candidate of that party with the strongest reading (valid before failing, then label before
 * heading before letterhead, then the earliest on the document). One printed GSTIN never serves
 * both parties.
 */
export function resolvePartyGstins(
  fromBlocks: { vendor: Candidate | null; buyer: Candidate | null },
  candidates: GstinCandidate[],
  type: DocumentType,
): { vendor: Candidate | null; buyer: Candidate | null } {
  const rank = (c: GstinCandidate) =>
    (c.valid ? VALID_RANK : 0) + (c.repaired ? -1 : 0) + EVIDENCE_RANK[c.evidence];
  const best = (party: 'vendor' | 'buyer', exclude: Candidate | null): Candidate | null => {
    const own = fromBlocks[party];
    const other = party === 'vendor' ? 'buyer' : 'vendor';
    const labelledElsewhere = (v: unknown) =>
      candidates.some((c) => c.value === v && c.evidence === 'label' && partyOf(c, type) === other);
    if (own && !labelledElsewhere(own.value))
      return { ...own, score: Math.min(own.score, ROLE_CONFIDENCE.block) };
    const list = candidates
      .filter((c) => partyOf(c, type) === party && !samePlace(c, exclude))
      .sort((a, b) => rank(b) - rank(a) || a.page - b.page || a.bbox[1] - b.bbox[1]);
    const site =
      party === 'buyer' && !list.length
        ? candidates.filter(
            (x) => isBuyersSite(x, type) && !samePlace(x, exclude) && x.value !== exclude?.value,
          )
        : [];
    const c =
      list[0] ??
      (site[0] ? { ...site[0], score: Math.min(site[0].score, GSTIN_READING_SCORE.buyersSite) } : undefined);
    return c
      ? {
          field: 'gstin',
          value: c.value,
          page: c.page,
          bbox: c.bbox,
          source: c.source,
          score: Math.min(c.score, ROLE_CONFIDENCE[c.evidence]),
        }
      : null;
  };
  const vendor = best('vendor', null);
  const buyer = best('buyer', vendor);
  return { vendor, buyer };
}

function samePlace(a: Candidate, b: Candidate | null): boolean {
  return (
    !!b && a.page === b.page && Math.abs(a.bbox[0] - b.bbox[0]) < 2 && Math.abs(a.bbox[1] - b.bbox[1]) < 2
  );
}

/** How far a state derived from the place of supply is trusted: a rule, not a reading of the buyer's block. */
const SUPPLY_STATE_CONFIDENCE = 0.6;

/**
 * The buyer's state when its block prints none and the page prints no GSTIN but the supplier's:
 * a recipient not registered under GST is supplied at its own location, so the labelled place of
 * supply is its state. Any other GSTIN on the page of another state (a buyer's one missed, a
 * consignee's) may mean a registered buyer billed in one state and supplied in another: then
 * nothing is derived. Derived, not read: never above review confidence.
 */
export function buyerStateFromSupply(
  buyer: { gstin: Candidate | null; stateCode: Candidate | null },
  vendorGstin: Candidate | null,
  candidates: GstinCandidate[],
  placeOfSupply: Candidate | undefined,
): Candidate | null {
  if (buyer.gstin || buyer.stateCode || typeof placeOfSupply?.value !== 'string') return null;
  // A GSTIN of the supply's own state (a platform's, a consignee's there) says nothing else.
  const supply = placeOfSupply.value;
  if (candidates.some((c) => c.value !== vendorGstin?.value && !String(c.value).startsWith(supply)))
    return null;
  if (!stateByCode(placeOfSupply.value)) return null;
  return {
    ...placeOfSupply,
    field: 'stateCode',
    score: Math.min(placeOfSupply.score, SUPPLY_STATE_CONFIDENCE),
  };
}
