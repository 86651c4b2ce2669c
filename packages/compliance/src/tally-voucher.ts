// One Tally Prime purchase voucher from one book invoice (contracts/compliance.md §3). The one
// builder the CLI and the server share; the TDS line is a seam (`tds`) for vouchers booked net of TDS.
import { formatIndianNumber, gstSlabsOn } from '@bahi/india';
import type { BookInvoice } from './books.ts';
import { mulDivRound, rateKey, rateMilli } from './money.ts';
import { sha256Hex } from './sha256.ts';

/** The company's ledger names (`--ledgers`); a supplier or rate missing from a map takes the default. */
export interface LedgerNames {
  /** Party ledger by supplier GSTIN. */
  parties?: Record<string, string>;
  /** By total GST rate, as text (`"18"`). */
  purchase?: Record<string, string>;
  igst?: Record<string, string>;
  /** By head rate (`"9"` for 18 %). */
  cgst?: Record<string, string>;
  sgst?: Record<string, string>;
  cess?: string;
  roundOff?: string;
}

/** One ledger line in Tally's signs: a debit is negative (`ISDEEMEDPOSITIVE` Yes), a credit positive. Paise. */
export interface VoucherEntry {
  ledger: string;
  amount: number;
  /** The supplier's line (bill-wise allocation against the invoice). */
  isParty?: boolean;
}

/** A purchase voucher ready to be written as XML. */
export interface PurchaseVoucher {
  remoteId: string;
  /** `YYYYMMDD`. */
  date: string;
  /** The supplier's invoice number as printed. */
  reference: string;
  party: string;
  partyGstin: string | null;
  placeOfSupply: string | null;
  entries: VoucherEntry[];
}

/** A voucher, or why the invoice is not written. */
export type VoucherResult = { ok: true; voucher: PurchaseVoucher } | { ok: false; reason: string };

/** Options of the builder. */
export interface VoucherOptions {
  ledgers?: LedgerNames;
  /**
   * TDS deducted on the invoice (paise) and its ledger: credited to that ledger, and the party
   * credited with the total less the TDS (what is actually owed to the supplier).
   */
  tds?: TdsLine | readonly TdsLine[];
}

/** TDS deducted under one section (paise) and the ledger it is payable to. */
export interface TdsLine {
  ledger: string;
  amount: number;
}

/** The largest gap (paise) between the invoice's amounts and its total that the round-off ledger may take. */
const ADD_UP_LIMIT = 100;

/**
 * REMOTEID of a supplier's document: the same for the same vendor GSTIN (or, unregistered, name),
 * number key and financial year whatever the file, run or order, so Tally keeps one voucher.
 */
export function voucherRemoteId(inv: BookInvoice): string {
  const who = inv.vendorGstin ?? `name:${(inv.vendorName ?? '').toUpperCase().replace(/\s+/g, ' ')}`;
  const hex = sha256Hex(`bahi-purchase|${who}|${inv.numberKey}|${inv.financialYear}`);
  return `bahi-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The single GST rate an invoice's taxes imply (for lines that print none), snapped to a slab. */
function impliedRate(inv: BookInvoice, taxable: number): number {
  const tax = inv.igst + inv.cgst + inv.sgst;
  if (taxable <= 0 || tax <= 0) return 0;
  const effective = (tax / taxable) * 100;
  const slabs = gstSlabsOn(inv.documentDate ?? undefined);
  return slabs.reduce((best, s) => (Math.abs(s - effective) < Math.abs(best - effective) ? s : best), 0);
}

/** Taxable value per GST rate (paise), ascending rates; what the lines leave of the header goes to the highest. */
function taxableByRate(inv: BookInvoice, taxable: number): Array<[number, number]> {
  const fallback = impliedRate(inv, taxable);
  const byRate = new Map<number, number>();
  for (const line of inv.lines) {
    const rate = line.gstRate ?? fallback;
    byRate.set(rate, (byRate.get(rate) ?? 0) + line.amount);
  }
  if (byRate.size === 0) byRate.set(fallback, 0);
  const rates = [...byRate.keys()].sort((a, b) => a - b);
  const top = rates[rates.length - 1]!;
  const linesSum = [...byRate.values()].reduce((s, x) => s + x, 0);
  byRate.set(top, byRate.get(top)! + taxable - linesSum);
  return rates.map((r) => [r, byRate.get(r)!]);
}

/** A head's total split by rate: each rate's base × head rate to the paisa, the rest to the highest taxed rate. */
function splitHead(total: number, bases: Array<[number, number]>, headShare: number): Map<number, number> {
  const out = new Map<number, number>();
  const taxed = bases.filter(([r]) => r > 0);
  if (total === 0) return out;
  if (taxed.length === 0) {
    out.set(bases[bases.length - 1]![0], total);
    return out;
  }
  let left = total;
  for (const [rate, base] of taxed.slice(0, -1)) {
    const tax = mulDivRound(base, rateMilli(rate * headShare), 100_000);
    out.set(rate, tax);
    left -= tax;
  }
  out.set(taxed[taxed.length - 1]![0], left);
  return out;
}

function refusal(inv: BookInvoice): string | null {
  if (!inv.documentNumber) return 'the invoice shows no number';
  if (!inv.documentDate) return 'the invoice shows no date';
  if (!inv.vendorName && !inv.vendorGstin) return 'the invoice shows no supplier';
  if (inv.total === null) return 'the invoice shows no total';
  return null;
}

const money = (p: number) => `₹${formatIndianNumber(p / 100)}`;

/** Build the purchase voucher of an invoice, or say why it cannot be written. */
export function buildPurchaseVoucher(inv: BookInvoice, options: VoucherOptions = {}): VoucherResult {
  const why = refusal(inv);
  if (why) return { ok: false, reason: why };
  const total = inv.total!;
  const taxable = inv.taxableValue ?? inv.lines.reduce((s, l) => s + l.amount, 0);
  const taxes = inv.igst + inv.cgst + inv.sgst + inv.cess;
  const gap = total - (taxable + taxes + (inv.roundOff ?? 0));
  if (Math.abs(gap) > ADD_UP_LIMIT)
    return {
      ok: false,
      reason: `amounts do not add up to the total: taxable value + taxes + round-off = ${money(total - gap)}, total ${money(total)}`,
    };
  const names = options.ledgers ?? {};
  const name = (map: Record<string, string> | undefined, rate: number, fallback: string) =>
    map?.[rateKey(rate)] ?? fallback;
  const entries: VoucherEntry[] = [];
  const debit = (ledger: string, paise: number) => entries.push({ ledger, amount: -paise });
  const party = (inv.vendorGstin && names.parties?.[inv.vendorGstin]) || inv.vendorName || inv.vendorGstin!;
  const tds = (Array.isArray(options.tds) ? options.tds : options.tds ? [options.tds] : []).filter(
    (t: TdsLine) => t.amount > 0,
  );
  entries.push({ ledger: party, amount: total - tds.reduce((s, t) => s + t.amount, 0), isParty: true });
  for (const t of tds) entries.push({ ledger: t.ledger, amount: t.amount });
  const bases = taxableByRate(inv, taxable);
  const igst = splitHead(inv.igst, bases, 1);
  const cgst = splitHead(inv.cgst, bases, 0.5);
  const sgst = splitHead(inv.sgst, bases, 0.5);
  for (const [rate, base] of bases) {
    const half = rate / 2;
    debit(name(names.purchase, rate, `Purchase @${rateKey(rate)}%`), base);
    debit(name(names.igst, rate, `Input IGST @${rateKey(rate)}%`), igst.get(rate) ?? 0);
    debit(name(names.cgst, half, `Input CGST @${rateKey(half)}%`), cgst.get(rate) ?? 0);
    debit(name(names.sgst, half, `Input SGST @${rateKey(half)}%`), sgst.get(rate) ?? 0);
  }
  debit(names.cess ?? 'Input Cess', inv.cess);
  // Whatever the printed round-off, the round-off ledger takes what balances the voucher (under ₹1 more at most).
  debit(names.roundOff ?? 'Round Off', total - taxable - taxes);
  return {
    ok: true,
    voucher: {
      remoteId: voucherRemoteId(inv),
      date: inv.documentDate!.replace(/-/g, ''),
      reference: inv.documentNumber!,
      party,
      partyGstin: inv.vendorGstin,
      placeOfSupply: inv.placeOfSupply ?? inv.buyerStateCode,
      entries: mergeEntries(entries),
    },
  };
}

/** One line per ledger (two rates mapped to one ledger add up), zero amounts left out. */
function mergeEntries(entries: VoucherEntry[]): VoucherEntry[] {
  const out: VoucherEntry[] = [];
  for (const e of entries) {
    const same = out.find((o) => o.ledger === e.ledger && !o.isParty === !e.isParty);
    if (same) same.amount += e.amount;
    else out.push({ ...e });
  }
  return out.filter((e) => e.amount !== 0);
}
