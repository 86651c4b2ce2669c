// GSTR-2B JSON (the portal's download for one return period) read into documents: both shapes
// of `b2b[].inv[]` (amounts flat, or per rate in `items[]`), `b2ba` amendments applied.
import { cleanGstin, stateCode } from './books.ts';
import { financialYear, isoFromPortalDate, normaliseInvoiceNumber } from './invoice-number.ts';
import { paiseOf } from './money.ts';

/** One supplier document of GSTR-2B. Amounts in paise. */
export interface Gstr2bDocument {
  ctin: string;
  /** As filed. */
  inum: string;
  numberKey: string;
  /** ISO date. */
  dt: string;
  financialYear: number;
  /** Return period `MMYYYY` of the file that holds the document (or its amendment). */
  period: string;
  pos: string | null;
  itcAvailable: boolean;
  itcReason: string | null;
  taxableValue: number;
  igst: number;
  cgst: number;
  sgst: number;
  cess: number;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Raw[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The return period `MMYYYY` of a GSTR-2B file, or null when it is not one. */
export function gstr2bPeriod(json: unknown): string | null {
  const data = isObject(json) && isObject(json.data) ? json.data : json;
  const p = isObject(data) ? data.rtnprd : null;
  return typeof p === 'string' && /^(0[1-9]|1[0-2])[0-9]{4}$/.test(p.trim()) ? p.trim() : null;
}

const periodOrder = (p: string) => p.slice(2) + p.slice(0, 2);

function amountsOf(inv: Raw): Pick<Gstr2bDocument, 'taxableValue' | 'igst' | 'cgst' | 'sgst' | 'cess'> {
  const rows = Array.isArray(inv.items) ? list(inv.items) : [inv];
  const sum = (key: string) => rows.reduce((s, r) => s + (paiseOf(r[key]) ?? 0), 0);
  return {
    taxableValue: sum('txval'),
    igst: sum('igst'),
    cgst: sum('cgst'),
    sgst: sum('sgst'),
    cess: sum('cess'),
  };
}

function documentOf(ctin: string, inv: Raw, period: string): Gstr2bDocument | null {
  const inum =
    typeof inv.inum === 'string' ? inv.inum.trim() : typeof inv.inum === 'number' ? String(inv.inum) : '';
  const dt = isoFromPortalDate(inv.dt);
  if (!inum || !dt) return null;
  const itcavl = typeof inv.itcavl === 'string' ? inv.itcavl.trim().toUpperCase() : 'Y';
  const rsn = typeof inv.rsn === 'string' && inv.rsn.trim() ? inv.rsn.trim() : null;
  return {
    ctin,
    inum,
    numberKey: normaliseInvoiceNumber(inum),
    dt,
    financialYear: financialYear(dt),
    period,
    pos: stateCode(inv.pos),
    itcAvailable: itcavl !== 'N',
    itcReason: itcavl === 'N' ? rsn : null,
    ...amountsOf(inv),
  };
}

function rowsOf(section: unknown, period: string): Array<{ doc: Gstr2bDocument; inv: Raw }> {
  const out: Array<{ doc: Gstr2bDocument; inv: Raw }> = [];
  for (const supplier of list(section)) {
    const ctin = cleanGstin(supplier.ctin);
    if (!ctin) continue;
    for (const inv of list(supplier.inv)) {
      const doc = documentOf(ctin, inv, period);
      if (doc) out.push({ doc, inv });
    }
  }
  return out;
}

/**
 * The B2B documents of several GSTR-2B files in "2B file and row order": files by return period
 * (so the order they are given in does not matter), rows as filed. A `b2ba` row replaces the
 * original of the same GSTIN whose number (keyed) and date it names, in the original's place and
 * with the period of the file holding the amendment; an amendment whose original is in none of
 * the files is a document of its own period, after that file's B2B rows. Files without a return
 * period are ignored (the caller reports them).
 */
export function readGstr2bFiles(files: readonly unknown[]): Gstr2bDocument[] {
  const parsed = files
    .map((json) => ({ json, period: gstr2bPeriod(json), text: JSON.stringify(json) }))
    .filter((f): f is { json: unknown; period: string; text: string } => f.period !== null)
    // Two files of one period: their content decides, never the order they were given in.
    .sort(
      (a, b) =>
        periodOrder(a.period).localeCompare(periodOrder(b.period)) ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
    );
  const dataOf = (json: unknown) => {
    const data = isObject(json) && isObject(json.data) ? json.data : (json as Raw);
    return isObject(data.docdata) ? data.docdata : {};
  };
  // Each slot keeps the original's identity (what an amendment names) and the current version.
  // `order` is [file, section (b2b 0, b2ba 1), row].
  type Slot = { ctin: string; key: string; dt: string; doc: Gstr2bDocument; order: [number, number, number] };
  const slots: Slot[] = [];
  for (const [fi, f] of parsed.entries()) {
    for (const [row, { doc }] of rowsOf(dataOf(f.json).b2b, f.period).entries())
      slots.push({ ctin: doc.ctin, key: doc.numberKey, dt: doc.dt, doc, order: [fi, 0, row] });
  }
  for (const [fi, f] of parsed.entries()) {
    for (const [row, { doc, inv }] of rowsOf(dataOf(f.json).b2ba, f.period).entries()) {
      const okey = inv.oinum === undefined ? doc.numberKey : normaliseInvoiceNumber(String(inv.oinum));
      const odt = isoFromPortalDate(inv.oidt) ?? doc.dt;
      const slot = slots.find(
        (s) =>
          s.ctin === doc.ctin &&
          ((s.key === okey && s.dt === odt) || (s.doc.numberKey === okey && s.doc.dt === odt)),
      );
      if (slot) slot.doc = doc;
      else slots.push({ ctin: doc.ctin, key: okey, dt: odt, doc, order: [fi, 1, row] });
    }
  }
  const byOrder = (a: Slot, b: Slot) =>
    a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2];
  return slots.sort(byOrder).map((s) => s.doc);
}
