import { GSTIN_PATTERN } from '@bahi/india';
import { editDistance } from '../util.ts';
import { lowerWords } from './ocr-words.ts';
import { MISREAD_FORM } from './party-weights.ts';
import { collapseSpaces, countLetters } from './values.ts';

/**
 * What a party's name can and cannot be, whichever finder proposed it. A label, a copy marker or a
 * route code read where a name should be is no name: the field is left empty for a person rather
 * than booked under a vendor called "Legal Name". And a name must agree with whose PAN the
 * GSTIN beside it carries: a company's name says it is one.
 */

/** Words that head a block or a field, or mark which copy a print is: never a party's name. */
const LABEL_WORDS =
  /^(?:(?:legal|trade|company|firm|party|customer|client|buyer|seller|supplier|vendor|consignee|consignor|recipient|receiver|billing|shipping|business|proprietor)\s*)*(?:name|details?|address|information|info)?$/i;

/** "Original for Recipient", "Duplicate for Transporter", "Triplicate", "Customer Copy", "Copy". */
const COPY_MARKER =
  /^(?:(?:original|duplicate|triplicate|quadruplicate|extra|office|customer|buyer|seller|supplier|transporter|recipient|receiver|accounts?|true|file)\b[\s-]*)+(?:(?:copy|for)\b.*)?$|^copy$/i;

/** Party roles and document words that are headings when they stand alone. */
const ROLE_OR_TITLE =
  /^(?:bill(?:ed)?|ship(?:ped)?|sold|deliver(?:ed|y)?|invoice|issued|dispatch(?:ed)?)\s*(?:to|from|by|at)?$|^(?:to|from|m\/s\.?|messrs\.?|sir|madam|signature|stamp|seal|receiver'?s? signature|for)$/i;

/** A name needs letters: a route or airport code ("DEL", "DEL-BOM") or a lone initial is not one. */
const MIN_LETTERS = 4;

/**
 * Whether `text` can never be a party's name: a label, a copy marker, a role heading, or too few
 * letters to name anyone.
 */
export function isNeverAPartyName(text: string): boolean {
  const t = collapseSpaces(text.replace(/[:;,.\-–—()[\]|*#"'“”‘’]+/g, ' ')).trim();
  if (countLetters(t) < MIN_LETTERS) return true;
  // Route codes: only three-letter capitals ("DEL BOM", "BLR - HYD").
  if (/^[A-Z]{3}(?: [A-Z]{3}){1,2}$/.test(t)) return true;
  return LABEL_WORDS.test(t) || COPY_MARKER.test(t) || ROLE_OR_TITLE.test(t);
}

/** The holder type a PAN's fourth character gives (Income-tax Department's PAN structure). */
export type PanHolder = 'company' | 'firm' | 'person' | 'other';

/** Where a GSTIN holds its PAN's holder type: after the two-digit state code, the PAN's fourth character. */
const PAN_HOLDER_INDEX = 5;

/** The holder type of the PAN inside a GSTIN (characters 3–12; the fourth PAN character). */
export function panHolderOfGstin(gstin: string): PanHolder | null {
  if (!GSTIN_PATTERN.test(gstin)) return null;
  const c = gstin[PAN_HOLDER_INDEX]!;
  if (c === 'C') return 'company';
  if (c === 'F') return 'firm';
  if (c === 'P' || c === 'H') return 'person';
  return 'other';
}

/** A company's legal form at the end of its name (Companies Act: "Limited", "Private Limited"). */
const COMPANY_FORM = /\b(?:ltd|limited|pvt|private|corporation|corp|inc|incorporated|plc|company|co)\b\.?/i;
const LLP_FORM = /\bllp\b/i;

/**
 * Whether a name and the PAN holder type of its GSTIN agree: "agree" when the name carries the
 * legal form the PAN says (a company's "Limited", a firm's "LLP"), "conflict" when it carries a
 * company's form but the PAN is a person's (the name belongs to another party on the page),
 * "unlikely" when a company's GSTIN stands beside a name without a company's form, and
 * "unknown" otherwise (a proprietor's trade name says nothing either way).
 */
export function nameAgreesWithGstin(
  name: string,
  gstin: string,
): 'agree' | 'conflict' | 'unlikely' | 'unknown' {
  const holder = panHolderOfGstin(gstin);
  if (!holder) return 'unknown';
  const company = COMPANY_FORM.test(name);
  const llp = LLP_FORM.test(name);
  if (holder === 'company' && company && !llp) return 'agree';
  if (holder === 'firm' && llp) return 'agree';
  if (holder === 'person' && (company || llp)) return 'conflict';
  if (holder === 'company' && llp) return 'conflict';
  // A company's registered name ends in "Limited"; a block without it may be a heading, a
  // project or a brand read where the name should be.
  if (holder === 'company') return 'unlikely';
  return 'unknown';
}

/** A registered name's closing form, and what follows it on the same line. */
const FORM_THEN_REST = /^(.*?\b(?:pvt\.?\s*ltd|private\s+limited|limited|ltd|llp))\.?\s*[,;-]?\s+(\S.*)$/i;

/**
 * A name with its address run on after the company form ("Mehta Tools Pvt. Ltd. 14, Canal Road,
 * Pune - 411001"): the name ends at "Ltd." / "Limited" / "LLP" when what follows reads like an
 * address. Anything else is returned as it was.
 */
export function cutAddressAfterForm(name: string): string {
  const m = FORM_THEN_REST.exec(name);
  if (!m?.[1] || !m[2] || !looksLikeAddress(m[2]) || m[2].startsWith('(')) return name;
  const end = name.indexOf(m[1]) + m[1].length;
  return name.slice(0, end) + (name.startsWith('.', end) ? '.' : '');
}

/** Words of an Indian address that a business name rarely carries (a locality, a plot, a PIN). */
const ADDRESS_WORDS =
  /\b(?:layout|sector|road|rd|marg|nagar|street|floor|plot|phase|colony|taluka?|district|dist|pin(?:code)?|near|opp|behind|lane|cross|khasra|survey|gali|mohalla|chowk|bypass)\b|\b\d{6}\b|\b(?:no|plot|door|flat|shop)\s*\.?\s*\d/i;

/**
 * Whether a "name" reads like a line of an address ("Indira Layout", "Sector-41, Gurugram"): a name
 * slipped off its block. Not refused outright (a "Gandhi Nagar Traders" exists), only doubted.
 */
export function looksLikeAddress(name: string): boolean {
  // Two commas: parts of an address, where a name has one at most.
  return ADDRESS_WORDS.test(name) || name.split(',').length > 2;
}

/** Words that make a line a business's name: its legal form or its trade ("… Traders", "… Agencies"). */
const BUSINESS_WORDS =
  /\b(?:traders?|trading|enterprises?|industries|industry|agenc(?:y|ies)|stores?|mart|suppliers?|services|solutions|engineering|engineers|works|associates|sons|brothers|bros|hardwares?|electricals?|electronics|motors|steels?|textiles|pharma|chemicals?|foods|exports?|imports?|distributors?|dealers?|corporation|group|ventures|systems|technologies|tech|infra|constructions?|builders|logistics|transport|hotel|restaurant|cafe|clinic|hospital|medicals?|centre|center|emporium|shop|house|bhandar|udyog|vastralaya)\b|&/i;

/**
 * An address line in a name's place, with nothing of a business in it ("HSR Layout", "Sector-12,
 * Noida, U.P."): the block's name was missed and its first address line taken. Read as a name it
 * would be written as one; it is left for a person instead. "Gandhi Nagar Traders" keeps its name.
 */
export function isAddressNotName(name: string): boolean {
  return looksLikeAddress(name) && !namesABusiness(name);
}

/** Whether a line names a business: a legal form or a trade word ("Pvt Ltd", "LLP", "Engineering"). */
export function namesABusiness(text: string): boolean {
  return COMPANY_FORM.test(text) || LLP_FORM.test(text) || BUSINESS_WORDS.test(text);
}

/** The spelt-out words of a registered company's form ("Private Limited"). */
const FORM_WORDS = ['private', 'limited'];

/**
 * Whether OCR misread the company form in a name ("PRIUAIE LIMIIED"): a word of the same length a
 * slip or two from "Private" or "Limited" but not it. The name's other words, which no dictionary
 * checks, were read as badly: such a name is left for a person rather than booked misspelt.
 */
export function hasMisreadForm(name: string): boolean {
  return lowerWords(name).some((w) =>
    FORM_WORDS.some(
      (f) =>
        w.length === f.length &&
        w !== f &&
        editDistance(w, f, MISREAD_FORM.maxSlips) <= MISREAD_FORM.maxSlips,
    ),
  );
}
