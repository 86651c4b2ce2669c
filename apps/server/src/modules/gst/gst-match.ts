import {
  type BookInvoice,
  type BooksRow,
  compareLinked,
  type Difference,
  type Gstr2bDocument,
  matchGstr2b,
  readBookInvoice,
  readGstr2bFiles,
} from '@bahi/compliance';
import type { GstDecision, GstRow, GstSide, GstTab } from '@bahi/contracts';

// The GST screen's rows: @bahi/compliance's GSTR-2B match over the purchase register, with what people
// decided laid over it — a link pairs an invoice with a 2B document whatever the rules say, an unlink
// keeps a pair apart, an acceptance clears a difference while the differences stay the ones accepted.
// Pure: the service reads the rows and hands them here on every request.

/** A read invoice of the organisation, as the match needs it. */
export interface RegisterInvoice {
  id: string;
  flowId: string;
  fileName: string;
  approved: boolean;
  extraction: unknown;
}

/** A decision as stored, oldest first. */
export interface StoredDecision extends GstDecision {
  documentId: string;
  differences: unknown;
}

interface Extraction {
  documentType?: string | null;
  fields?: Record<string, unknown>;
  lineItems?: Array<Record<string, unknown>> | null;
}

/** The key a person's decision names a 2B document by: supplier GSTIN, number as filed, ISO date. */
export function gstr2bKey(doc: Pick<Gstr2bDocument, 'ctin' | 'inum' | 'dt'>): string {
  return `${doc.ctin}|${doc.inum}|${doc.dt}`;
}

/** The invoices of the register read for the match; `file` is the document id, so rows map back exactly. */
export function readRegister(invoices: readonly RegisterInvoice[]): BookInvoice[] {
  return invoices.map((d) => {
    const e = (d.extraction ?? {}) as Extraction;
    return readBookInvoice({ file: d.id, fields: e.fields ?? {}, lineItems: e.lineItems ?? [] });
  });
}

const rupees = (paise: number) => paise / 100;
const itcOf = (x: { igst: number; cgst: number; sgst: number; cess: number }) =>
  x.igst + x.cgst + x.sgst + x.cess;

function booksSide(inv: BookInvoice): GstSide {
  return {
    gstin: inv.vendorGstin,
    documentNumber: inv.documentNumber,
    documentDate: inv.documentDate,
    placeOfSupply: inv.placeOfSupply,
    taxableValue: inv.taxableValue === null ? null : rupees(inv.taxableValue),
    igst: rupees(inv.igst),
    cgst: rupees(inv.cgst),
    sgst: rupees(inv.sgst),
    cess: rupees(inv.cess),
  };
}

function gstr2bSide(doc: Gstr2bDocument): NonNullable<GstRow['gstr2b']> {
  return {
    key: gstr2bKey(doc),
    period: doc.period,
    gstin: doc.ctin,
    documentNumber: doc.inum,
    documentDate: doc.dt,
    placeOfSupply: doc.pos,
    taxableValue: rupees(doc.taxableValue),
    igst: rupees(doc.igst),
    cgst: rupees(doc.cgst),
    sgst: rupees(doc.sgst),
    cess: rupees(doc.cess),
    itcAvailable: doc.itcAvailable,
    itcReason: doc.itcReason,
  };
}

/** The differences as one text, whatever order a stored copy keeps its keys in (jsonb reorders them). */
function fingerprint(differences: unknown): string {
  const list = Array.isArray(differences) ? (differences as Difference[]) : [];
  return list.map((d) => `${d.field}=${d.books ?? ''}/${d.gstr2b ?? ''}`).join(';');
}

/** What a person's decisions on one invoice add up to. */
interface DecisionState {
  link: string | null;
  unlinked: Set<string>;
  accepted: { key: string; differences: string } | null;
  history: GstDecision[];
}

function foldDecisions(decisions: readonly StoredDecision[]): Map<string, DecisionState> {
  const out = new Map<string, DecisionState>();
  for (const d of decisions) {
    const s = out.get(d.documentId) ?? { link: null, unlinked: new Set(), accepted: null, history: [] };
    if (d.action === 'link') {
      s.link = d.gstr2bKey;
      s.unlinked.delete(d.gstr2bKey);
      s.accepted = null;
    } else if (d.action === 'unlink') {
      if (s.link === d.gstr2bKey) s.link = null;
      s.unlinked.add(d.gstr2bKey);
      s.accepted = null;
    } else {
      s.accepted = { key: d.gstr2bKey, differences: fingerprint(d.differences) };
    }
    s.history.push({
      id: d.id,
      action: d.action,
      gstr2bKey: d.gstr2bKey,
      reason: d.reason,
      userName: d.userName,
      at: d.at,
    });
    out.set(d.documentId, s);
  }
  return out;
}

const TAB_OF: Record<GstRow['status'], GstTab> = {
  matched: 'matched',
  matched_within_tolerance: 'within_tolerance',
  mismatch: 'mismatch',
  probable_match: 'probable',
  missing_in_2b: 'missing_in_2b',
  missing_in_books: 'missing_in_books',
  // A second copy of an invoice claims its credit twice: a difference to look at.
  duplicate_in_books: 'mismatch',
};

const IMS_OF: Record<GstRow['status'], GstRow['ims']> = {
  matched: 'accept',
  matched_within_tolerance: 'accept',
  mismatch: 'pending',
  probable_match: 'pending',
  missing_in_2b: 'none',
  missing_in_books: 'pending',
  duplicate_in_books: 'none',
};

/** `MMYYYY` of an ISO date. */
const monthOf = (iso: string | null) => (iso ? `${iso.slice(5, 7)}${iso.slice(0, 4)}` : null);

/** A pair (or a lone invoice) before it becomes a row. */
interface Pairing {
  inv: BookInvoice;
  doc: Gstr2bDocument | null;
  status: GstRow['status'];
  differences: Difference[];
  decided: GstRow['decided'];
}

/** Inputs of {@link buildGstRows}. */
export interface GstMatchInput {
  /** The buyer GSTIN of the files (null: they name none); every row carries it. */
  buyerGstin?: string | null;
  invoices: readonly RegisterInvoice[];
  /** Parsed GSTR-2B files in force (one per period and GSTIN). */
  files: readonly unknown[];
  decisions: readonly StoredDecision[];
  toleranceRupees: number;
  /** Supplier names by GSTIN (the vendor master, the 2B's trade names). */
  names: ReadonlyMap<string, string>;
}

function pairUp(input: GstMatchInput, books: BookInvoice[], docs: Gstr2bDocument[]) {
  const state = foldDecisions(input.decisions);
  const byKey = new Map(docs.map((d) => [gstr2bKey(d), d]));
  const pairings: Pairing[] = [];
  const taken = new Set<Gstr2bDocument>();
  // Links first: a person said these are one document.
  for (const inv of books) {
    const key = state.get(inv.file)?.link;
    const doc = key ? byKey.get(key) : undefined;
    if (!doc || taken.has(doc)) continue;
    taken.add(doc);
    const { status, differences } = compareLinked(inv, doc, { toleranceRupees: input.toleranceRupees });
    pairings.push({ inv, doc, status, differences, decided: 'linked' });
  }
  const linked = new Set(pairings.map((p) => p.inv));
  const rest = books.filter((b) => !linked.has(b));
  const results = matchGstr2b(
    rest,
    docs.filter((d) => !taken.has(d)),
    { toleranceRupees: input.toleranceRupees },
  );
  for (const [i, r] of results.entries()) {
    if (r.kind !== 'books') break;
    const inv = rest[i]!;
    const row = r as BooksRow;
    const doc = row.match ? byKey.get(gstr2bKey(row.match)) : undefined;
    // A pair a person took apart stays apart; the invoice is then missing from 2B.
    if (doc && state.get(inv.file)?.unlinked.has(gstr2bKey(doc))) {
      pairings.push({ inv, doc: null, status: 'missing_in_2b', differences: [], decided: 'unlinked' });
      continue;
    }
    if (doc) taken.add(doc);
    pairings.push({ inv, doc: doc ?? null, status: row.status, differences: row.differences, decided: null });
  }
  return { pairings, state, unclaimed: docs.filter((d) => !taken.has(d)) };
}

/** Every row of the GST screen, all periods: invoices in register order, then 2B documents no invoice claimed. */
export function buildGstRows(input: GstMatchInput): GstRow[] {
  const books = readRegister(input.invoices);
  const docs = readGstr2bFiles(input.files);
  const meta = new Map(input.invoices.map((d) => [d.id, d]));
  const { pairings, state, unclaimed } = pairUp(input, books, docs);
  const order = new Map(books.map((b, i) => [b.file, i]));
  pairings.sort((a, b) => order.get(a.inv.file)! - order.get(b.inv.file)!);
  const nameOf = (gstin: string | null, fallback: string | null) =>
    (gstin ? input.names.get(gstin) : undefined) ?? fallback;
  const rows: GstRow[] = pairings.map((p) => {
    const s = state.get(p.inv.file);
    const m = meta.get(p.inv.file)!;
    const key = p.doc ? gstr2bKey(p.doc) : null;
    const accepted =
      (p.status === 'mismatch' || p.status === 'probable_match') &&
      s?.accepted?.key === key &&
      s.accepted.differences === fingerprint(p.differences);
    const gstin = p.inv.vendorGstin ?? p.doc?.ctin ?? null;
    return {
      key: `b:${p.inv.file}`,
      tab: accepted ? 'matched' : TAB_OF[p.status],
      status: p.status,
      decided: accepted ? 'accepted' : p.decided,
      ims: accepted ? 'accept' : IMS_OF[p.status],
      period: p.doc?.period ?? monthOf(p.inv.documentDate),
      buyerGstin: input.buyerGstin ?? null,
      vendorName: p.inv.vendorName ?? nameOf(gstin, null),
      pan: gstin ? gstin.slice(2, 12) : null,
      invoice: { id: m.id, flowId: m.flowId, fileName: m.fileName, approved: m.approved },
      books: booksSide(p.inv),
      gstr2b: p.doc ? gstr2bSide(p.doc) : null,
      differences: p.differences,
      itc: rupees(itcOf(p.inv)),
      decisions: s?.history ?? [],
    };
  });
  for (const doc of unclaimed)
    rows.push({
      key: `g:${gstr2bKey(doc)}`,
      tab: 'missing_in_books',
      status: 'missing_in_books',
      decided: null,
      ims: 'pending',
      period: doc.period,
      buyerGstin: input.buyerGstin ?? null,
      vendorName: nameOf(doc.ctin, null),
      pan: doc.ctin.slice(2, 12),
      invoice: null,
      books: null,
      gstr2b: gstr2bSide(doc),
      differences: [],
      itc: rupees(itcOf(doc)),
      decisions: [],
    });
  return rows;
}

/** Supplier trade names a GSTR-2B file gives (`b2b[].trdnm`), by GSTIN. */
export function tradeNamesOf(json: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const root = (json ?? {}) as { data?: { docdata?: Record<string, unknown> } };
  const docdata = root.data?.docdata ?? (json as { docdata?: Record<string, unknown> })?.docdata ?? {};
  for (const section of ['b2b', 'b2ba']) {
    const list = docdata[section];
    if (!Array.isArray(list)) continue;
    for (const s of list as Array<{ ctin?: unknown; trdnm?: unknown }>)
      if (typeof s?.ctin === 'string' && typeof s.trdnm === 'string' && s.trdnm.trim())
        out.set(s.ctin.replace(/\s+/g, '').toUpperCase(), s.trdnm.trim());
  }
  return out;
}

/** A GSTIN as compared: upper case, without the spaces some bills print inside it; null when empty. */
function cleanGstin(value: unknown): string | null {
  const t = typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() : '';
  return t || null;
}

/** The buyer GSTIN an invoice is billed to, as read (or corrected); null when it shows none. */
export function billedToGstin(invoice: RegisterInvoice): string | null {
  return cleanGstin((invoice.extraction as Extraction | null)?.fields?.buyerGstin);
}

/** The 2B files in force of one buyer GSTIN (null: files that name none). */
export interface GstinFiles {
  gstin: string | null;
  files: readonly unknown[];
}

/**
 * Every row of the GST screen when the organisation files for several GSTINs: a GSTR-2B belongs to one
 * buyer GSTIN, so each GSTIN's files are matched only against the invoices billed to that GSTIN (a
 * supplier's document in one GSTIN's 2B is never claimed by an invoice billed to another). Files that
 * name no GSTIN take the invoices billed to none of the GSTINs that have files. Invoices of no group stay
 * rows (missing in 2B, no buyer GSTIN of a file) so the register is whole, but no period view shows them.
 */
export function buildGstRowsByGstin(
  input: Omit<GstMatchInput, 'files' | 'buyerGstin'> & { groups: readonly GstinFiles[] },
): GstRow[] {
  const named = new Set(input.groups.flatMap((g) => (g.gstin ? [g.gstin] : [])));
  const groupOf = (inv: RegisterInvoice): string | null | undefined => {
    const billed = billedToGstin(inv);
    if (billed && named.has(billed)) return billed;
    return input.groups.some((g) => g.gstin === null) ? null : undefined;
  };
  const rows: GstRow[] = [];
  for (const g of input.groups)
    rows.push(
      ...buildGstRows({
        ...input,
        buyerGstin: g.gstin,
        files: g.files,
        invoices: input.invoices.filter((inv) => groupOf(inv) === g.gstin),
      }),
    );
  const loose = input.invoices.filter((inv) => groupOf(inv) === undefined);
  const byId = new Map(loose.map((inv) => [inv.id, inv]));
  for (const row of buildGstRows({ ...input, files: [], invoices: loose })) {
    const inv = row.invoice ? byId.get(row.invoice.id) : undefined;
    rows.push({ ...row, buyerGstin: inv ? billedToGstin(inv) : null });
  }
  return rows;
}
