import type { Layout, Line, Segment } from '../layout.ts';
import { isTitleText, profileOf } from '../profiles/index.ts';
import type { DocumentType } from '../types.ts';
import { alphanumericKey, editDistance } from '../util.ts';
import type { Candidate } from './header.ts';
import { isLabelText, matchStart } from './labels.ts';
import {
  ADDRESS_LIKE,
  candidate,
  clean,
  columnLimit,
  EMPTY,
  GSTIN_LABEL,
  headingRole,
  mergeOcrRun,
  type Party,
  type Role,
  readBlock,
  SALUTATION,
  tidyName,
  valueBesideHeading,
} from './party-block.ts';
import { hasMisreadForm, isNeverAPartyName, looksLikeAddress, namesABusiness } from './party-names.ts';
import { BLOCK_GEOMETRY as B, LETTERHEAD, PARTY_SCORE, SAME_NAME, SIGN_OFF } from './party-weights.ts';
import { countLetters, findGstins, stripLeadingSeparators, withoutSpaces } from './values.ts';
import { PARTY_LABELS } from './vocabulary.ts';

export { columnLimit, headingRole, type Party, type Role, stripNameLabel, tidyName } from './party-block.ts';
export { MISSPELT_STATE_CONFIDENCE } from './party-state.ts';

/**
 * Finding the supplier and the buyer on a document: the blocks under party headings ("Bill To",
 * "Supplier", "To,"), the issuer's letterhead at the top of page 1, and, when no letterhead is
 * read, the issuer's name where it signs off at the foot. Each block is read by party-block.ts.
 */

/** The party block a heading opens: its text after the label, the cell beside it, or the lines under it. */
function blockFromAnchor(layout: Layout, type: DocumentType, anchor: Segment): Party {
  const line = layout.lines[anchor.line]!;
  const role = headingRole(anchor.text, type);
  const label = matchStart(anchor.text, [
    ...PARTY_LABELS.shipTo,
    ...PARTY_LABELS.buyer,
    ...PARTY_LABELS.counterparty,
    ...PARTY_LABELS.vendor,
  ]);
  let restText = '';
  let restWords = anchor.words;
  if (label !== null) {
    // Drop a bracketed qualifier after the label: "Buyer (Bill to)", "Consignee (Ship to):".
    const after = stripLeadingSeparators(anchor.text.slice(label))
      .text.replace(/^\s*\([^)]*\)/, '')
      .replace(/^[\s/&|,]+/, '');
    restText = stripLeadingSeparators(after).text.trim();
    // "Bill to / Ship to", "Invoice To: (Bill To)": what follows the label is another heading.
    if (restText && (headingRole(restText, type) || isLabelText(restText, type))) restText = '';
    if (restText) restWords = anchor.words.slice(anchor.words.length - restText.split(' ').length);
  }
  const i = line.segments.indexOf(anchor);
  if (restText && role) {
    const first = { ...anchor, text: restText, words: restWords, x0: restWords[0]!.x0 };
    const limit = columnLimit(line, i, type);
    return readBlock(layout, type, [first], anchor.x0, anchor.line, null, false, limit);
  }
  const right = valueBesideHeading(line, i, type);
  if (right) {
    const limit = columnLimit(line, i + 1, type);
    return readBlock(
      layout,
      type,
      [mergeOcrRun(line.segments, right, type, limit)],
      right.x0,
      anchor.line,
      anchor.x0,
      false,
      limit,
    );
  }
  return readBlock(layout, type, [], anchor.x0, anchor.line, null, false, columnLimit(line, i, type));
}

/**
 * Whether an address, phone, e-mail or GSTIN line follows a segment in its block: within its next
 * two lines, each no further below the one before than about two of its own heights (a logo's
 * tagline is close under it; the name block further down is a block of its own), starting near its
 * left edge or under it.
 */
function hasAddressBelow(layout: Layout, s: Segment): boolean {
  const h = Math.max(1, s.y1 - s.y0);
  let prev = { y1: s.y1, height: h };
  for (let i = s.line + 1; i < Math.min(layout.lines.length, s.line + 1 + LETTERHEAD.addressLines); i++) {
    const line = layout.lines[i] as Layout['lines'][number];
    if (
      line.page !== s.page ||
      line.y0 - prev.y1 > LETTERHEAD.addressGapHeights * Math.min(prev.height, line.height)
    )
      break;
    for (const t of line.segments) {
      const under = t.x0 < s.x1 && t.x1 > s.x0 && Math.abs(t.x0 - s.x0) < LETTERHEAD.addressIndentHeights * h;
      if (!under) continue;
      if (ADDRESS_LIKE.test(t.text) || /@|\b(?:ph|phone|tel|mob|mobile|gstin|address)\b/i.test(t.text))
        return true;
    }
    prev = line;
  }
  return false;
}

/**
 * Choose the issuer's name among letterhead lines read by OCR (which, unlike a text layer, also
 * reads logos and stylised taglines). The issuer signs the document: a line that matches the name
 * in the signature block ("for ACME TRADERS" above "Authorised Signatory") wins. Otherwise a name
 * with an address under it beats one without, and among those the first, unless a later one is
 * much larger.
 */
function pickOcrLetterhead(layout: Layout, candidates: Segment[], beside: Segment | null): Segment | null {
  const signed = signatoryName(layout);
  if (signed) {
    const match = candidates.find((s) => sameName(s.text, signed));
    if (match) return match;
  }
  if (beside) return beside;
  let best: Segment | null = null;
  let bestAddressed = false;
  for (const s of candidates) {
    const addressed = hasAddressBelow(layout, s);
    if (best && bestAddressed !== addressed) {
      if (addressed) {
        best = s;
        bestAddressed = true;
      }
      continue;
    }
    if (!best || s.y1 - s.y0 > LETTERHEAD.muchTaller * (best.y1 - best.y0)) {
      best = s;
      bestAddressed = addressed;
    }
  }
  return best;
}

/** A document title with its spaces lost. */
const GLUED_TITLE = /invoice|purchaseorder|workorder|billofsupply|cashmemo|goodsrece/i;

/** Signature wording under the issuer's "for NAME". */
const SIGNATORY = /authori[sz]ed|signatory|signature/i;

/** "for NAME" over a signature, or "For," alone on its line over the name (then without a name). */
const FOR_NAME = /^for\s*[,:]?(?:\s+(.*[A-Za-z]{2}.*))?$/i;

/** The name in a signature block: "for NAME" with signature wording on its line or the next few. */
function signatoryName(layout: Layout): string | null {
  for (let i = 0; i < layout.lines.length; i++) {
    const line = layout.lines[i] as Layout['lines'][number];
    for (const seg of line.segments) {
      const m = FOR_NAME.exec(seg.text.trim());
      if (!m?.[1] || SIGNATORY.test(m[1])) continue;
      const below = layout.lines.slice(i, i + SIGN_OFF.signatoryLines).filter((l) => l.page === line.page);
      if (below.some((l) => l.segments.some((t) => SIGNATORY.test(t.text)))) return m[1];
    }
  }
  return null;
}

/**
 * The issuer's sign-off at the foot of a document: "For," (or "For") alone on its line, and the
 * issuer's name on the next line, as Indian letters and POs close. Null when there is none.
 */
function signedOffBy(layout: Layout): Candidate | null {
  for (let i = 0; i < layout.lines.length - 1; i++) {
    const line = layout.lines[i]!;
    const forLine = line.segments.length === 1 ? FOR_NAME.exec(line.text.trim()) : null;
    if (!forLine || forLine[1] !== undefined) continue;
    const next = layout.lines[i + 1]!;
    const seg = next.segments.find((s) => Math.abs(s.x0 - line.segments[0]!.x0) < SIGN_OFF.alignSlack);
    if (!seg || next.page !== line.page || next.y0 - line.y1 > SIGN_OFF.gapHeights * line.height) continue;
    const text = tidyName(clean(seg.text));
    // A name: mostly letters, not signature wording or a label.
    const letters = countLetters(text);
    const fewLetters =
      letters < SIGN_OFF.minLetters || letters < SIGN_OFF.minLetterShare * withoutSpaces(text).length;
    if (fewLetters || SIGNATORY.test(text)) continue;
    return candidate('name', [seg], text, PARTY_SCORE.signedOff);
  }
  return null;
}

/** A letter's closing ("… Regards", "Yours faithfully,") at the end of its line. */
const CLOSING = /\b(?:regards|yours\s+(?:faithfully|truly|sincerely))\s*[,.]?\s*$/i;

/**
 * The issuer named under a letter's closing: "Regards", then the writer, a phone number and the
 * company, as POs written as letters end. Only a line that names a business counts (the writer's
 * own name does not), within the few lines under the closing.
 */
function closedBy(layout: Layout): Candidate | null {
  for (let i = 0; i < layout.lines.length; i++) {
    const line = layout.lines[i]!;
    if (!CLOSING.test(line.text)) continue;
    for (const next of layout.lines.slice(i + 1, i + 1 + SIGN_OFF.closingLines)) {
      if (next.page !== line.page) break;
      const seg = next.segments[0]!;
      const text = tidyName(clean(seg.text));
      if (/@|\d{4}/.test(text) || isLabelText(text, 'po')) continue;
      if (namesABusiness(text)) return candidate('name', [seg], text, PARTY_SCORE.closing);
    }
  }
  return null;
}

/** Two readings of one name: equal but for case, spacing, punctuation and an OCR slip or two. */
function sameName(a: string, b: string): boolean {
  const x = alphanumericKey(a);
  const y = alphanumericKey(b);
  if (x.length < SAME_NAME.minChars || y.length < SAME_NAME.minChars) return false;
  const slips = Math.floor(Math.max(x.length, y.length) / SAME_NAME.charsPerSlip);
  return editDistance(x, y, slips + 1) <= slips;
}

/**
 * The issuer's block at the top of page 1, above the first party heading. A supplier's block set
 * in the column left of the heading may start on the heading's own line ("Sahyadri Pumps | Bill
 * to:"): the cells left of the heading on its line count too.
 */
function letterheadBlock(layout: Layout, type: DocumentType, anchor: Segment | null): Party {
  const page = layout.pages[0];
  if (!page) return EMPTY;
  const limitY = anchor?.y0 ?? page.height;
  const besideAnchor = (l: Line) => !!anchor && l.y1 > limitY + 1 && l.y0 < anchor.y1;
  const lines = layout.lines.filter((l) => l.page === page.page && (l.y1 <= limitY + 1 || besideAnchor(l)));
  let best: Segment | null = null;
  // The supplier's own block beside the buyer's heading: its first line names the supplier.
  let beside: Segment | null = null;
  const ocrCandidates: Segment[] = [];
  for (const l of lines) {
    if (l.y0 > page.height * LETTERHEAD.topShare) break;
    for (const s of l.segments) {
      // Beside the heading, only a block of its own: a name with its address under it.
      if (besideAnchor(l) && (s.x1 > anchor!.x0 - LETTERHEAD.besideHeadingGap || !hasAddressBelow(layout, s)))
        continue;
      if (!/[A-Za-z]{3}/.test(s.text) || s.text.length < LETTERHEAD.minChars) continue;
      if (
        isTitleText(s.text) ||
        // OCR may glue a title's words ("TAXINVOICE"), which no word-bounded title pattern sees.
        GLUED_TITLE.test(withoutSpaces(s.text).replaceAll('.', '')) ||
        /original|duplicate|triplicate|copy|page \d/i.test(s.text)
      )
        continue;
      if (isLabelText(s.text, type) || findGstins(s.text).length) continue;
      // A letter's salutation is not a name, nor a row's value after its colon ("State Name : …").
      if (SALUTATION.test(s.text) || s.text.startsWith(':')) continue;
      // Numbered section headings ("2. Transaction Details") and table words are not a company name.
      if (/^\d+\.\s|details$/i.test(s.text)) continue;
      if (/\b(?:amount|total|qty|quantity|rate|description|particulars|hsn|sac|gst|tax)\b/i.test(s.text))
        continue;
      // OCR noise: a name is mostly letters.
      if (countLetters(s.text) < LETTERHEAD.minLetterShare * withoutSpaces(s.text).length) continue;
      const h = s.y1 - s.y0;
      if (besideAnchor(l) && !beside && !looksLikeAddress(s.text)) beside = s;
      if (s.words[0]?.source === 'ocr') {
        // OCR box heights follow the glyphs (a line with descenders reads taller than a bold name
        // without), so on scans the name is the first name-like line, unless a confidently read
        // line is much larger (a big letterhead under a small tagline).
        // A business's name may carry its town after a comma ("Kaveri Agro Foods, Hassan").
        if (ADDRESS_LIKE.test(s.text) && !(namesABusiness(s.text) && !looksLikeAddress(s.text))) continue;
        const conf = s.words.reduce((a, w) => a + w.conf, 0) / s.words.length;
        if (conf < LETTERHEAD.minConf) continue;
        ocrCandidates.push(s);
        continue;
      }
      if (!best || h > best.y1 - best.y0 + LETTERHEAD.tallerBy) best = s;
    }
  }
  if (!best && ocrCandidates.length > 0) best = pickOcrLetterhead(layout, ocrCandidates, beside);
  else if (beside) best = beside;
  if (!best) return EMPTY;
  const line = layout.lines[best.line]!;
  const limit = columnLimit(line, line.segments.indexOf(best), type);
  return readBlock(layout, type, [best], best.x0, best.line, null, true, limit);
}

/**
 * A block of its own under the issuer's letterhead when no heading names the buyer (the heading
 * left out, or printed in a logo OCR does not read): a name with its address under it and its own
 * GSTIN or state row, above the line items. Only its place says whose it is: below review.
 */
function unheadedBlock(
  layout: Layout,
  type: DocumentType,
  letterhead: Party,
  skip: (s: Segment) => boolean,
): Party | null {
  const page = layout.pages[0];
  const bottom = (c: Candidate | null) => (c ? boxBottom(c.bbox) : 0);
  const top = Math.max(bottom(letterhead.name), bottom(letterhead.address));
  if (!page || !letterhead.name || !top) return null;
  for (const l of layout.lines) {
    if (l.page !== page.page || l.y0 <= top) continue;
    if (l.y0 > page.height * LETTERHEAD.topShare) break;
    for (const s of l.segments) {
      if (skip(s) || isLabelText(s.text, type) || isTitleText(s.text) || !hasAddressBelow(layout, s))
        continue;
      if (ADDRESS_LIKE.test(s.text) || isNeverAPartyName(s.text)) continue;
      const block = readBlock(
        layout,
        type,
        [s],
        s.x0,
        s.line,
        null,
        false,
        columnLimit(l, l.segments.indexOf(s), type),
      );
      if (!block.name || !block.address || !(block.gstin || block.stateCode || gstinRowUnder(layout, s)))
        continue;
      if (sameName(String(block.name.value), String(letterhead.name.value))) continue;
      return { ...block, name: { ...block.name, score: Math.min(block.name.score, PARTY_SCORE.unheaded) } };
    }
  }
  return null;
}

/** The lower edge of a box. */
function boxBottom([, , , y1]: Candidate['bbox']): number {
  return y1;
}

/** Whether a "GSTIN :" row stands in the few lines under a segment, starting at its left edge. */
function gstinRowUnder(layout: Layout, s: Segment): boolean {
  return layout.lines
    .slice(s.line + 1, s.line + 1 + B.maxLines)
    .some(
      (l) =>
        l.page === s.page &&
        l.segments.some((t) => Math.abs(t.x0 - s.x0) < B.columnSlack && GSTIN_LABEL.test(t.text)),
    );
}

/**
 * Find the supplier and the buyer. Anchored blocks ("Bill To", "Buyer", "Supplier", "Vendor",
 * "To,") win; the letterhead at the top of page 1 is the issuer: the supplier of an invoice, the
 * buyer of a PO or GRN. A consignee / ship-to block is read only to be kept out of the buyer.
 */
export function extractParties(
  layout: Layout,
  type: DocumentType,
  skip: (s: Segment) => boolean,
): { vendor: Party; buyer: Party } {
  const anchors: Partial<Record<Role, Segment>> = {};
  for (const s of layout.segments) {
    if (skip(s) || s.page !== layout.pages[0]?.page) continue;
    const role = headingRole(s.text, type);
    if (role && !anchors[role]) anchors[role] = s;
  }
  const firstAnchor = Object.values(anchors).reduce<Segment | null>(
    (a, b) => (!a || b.y0 < a.y0 ? b : a),
    null,
  );
  const letterhead = letterheadBlock(layout, type, firstAnchor);
  // No letterhead read (a logo only): the issuer signs off "For, NAME" at the foot.
  const issuer = letterhead.name ? letterhead : { ...EMPTY, name: signedOffBy(layout) ?? closedBy(layout) };
  const read = (r: Role) => (anchors[r] ? blockFromAnchor(layout, type, anchors[r]) : null);
  const vendorBlock = read('vendor');
  const buyerBlock = read('buyer');
  const usable = (p: Party | null) => (p?.name ? p : null);
  if (profileOf(type).issuer === 'vendor') {
    const buyer =
      usable(buyerBlock) ?? (anchors.buyer ? null : unheadedBlock(layout, type, letterhead, skip));
    return { vendor: legible(usable(vendorBlock) ?? issuer), buyer: legible(buyer ?? EMPTY) };
  }
  // On a PO or GRN the buyer is the issuer: a "Buyer | Projects" row naming only a purchasing
  // group (no address, no GSTIN) does not outweigh the letterhead.
  const bare = (p: Party | null) => !!p && !p.address && !p.gstin;
  const buyer = usable(buyerBlock) && !(bare(buyerBlock) && issuer.name) ? buyerBlock! : issuer;
  return { vendor: legible(usable(vendorBlock) ?? EMPTY), buyer: legible(buyer) };
}

/**
 * A party whose scanned name has its company form misread ("PRIUAIE LIMIIED") keeps its address
 * and state, not the name: its other words were read no better, and a misspelt name is worse
 * than none.
 */
function legible(p: Party): Party {
  const misread = p.name?.source === 'ocr' && hasMisreadForm(String(p.name.value));
  return misread ? { ...p, name: null } : p;
}
