import {
  type InvoiceMatch,
  MSME_MAX_PAYMENT_DAYS,
  type PoMatch,
  RECONCILE_PAGE_SIZE,
  type ReconcilePage,
  type ReconcileQuery,
  type Reconciliation,
} from '@bahi/contracts';
import {
  DEFAULT_TOLERANCES,
  type InvoiceResult,
  type MatchDocument,
  type PoResult,
  reconcileDocuments,
  type Tolerances,
} from '@bahi/reconcile';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { refreshFlowOutputs } from '../flows/flow-outputs.ts';
import { listFlowRows } from '../flows/flows.repo.ts';
import { requireOverrideByAnother } from '../maker-checker/maker-checker.ts';
import { listVendorRows, type VendorListRow } from '../vendors/vendors.repo.ts';
import {
  findReconcileSettings,
  insertOverride,
  listMatchableDocuments,
  listOverrides,
  type MatchableDocument,
  type OverrideRow,
  saveReconcileSettings,
  setFlowNoPoNeeded,
} from './reconcile.repo.ts';

/**
 * The three-way match over the organisation's documents, as people read it: each invoice with its
 * purchase order and goods receipts (linked to their review screens), its status, whether it should be
 * paid and why not, the evidence line by line, and a person's override. Matching is computed from the
 * stored readings on every request, so it follows every new, corrected or removed document by itself.
 */

interface Extraction {
  documentType?: string | null;
  fields?: Record<string, unknown>;
  lineItems?: Array<Record<string, unknown>>;
  error?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toRef(doc: MatchableDocument) {
  const e = (doc.extraction ?? {}) as Extraction;
  return {
    id: doc.id,
    flowId: doc.flowId,
    fileName: doc.fileName,
    documentNumber: str(e.fields?.documentNumber),
  };
}

/** The latest override of an invoice that still covers its exceptions, and every one given. */
function findOverride(rows: OverrideRow[], codes: string[]) {
  const toView = (r: OverrideRow) => ({
    reason: r.reason,
    userName: r.userName,
    at: r.createdAt.toISOString(),
    codes: r.codes,
  });
  const latest = rows.at(-1);
  const covers = latest && codes.length > 0 && codes.every((c) => latest.codes.includes(c));
  return { override: covers ? toView(latest) : null, overrides: rows.map(toView) };
}

/** Days an MSME supplier may be paid in after acceptance: what was agreed, at most 45; 15 when nothing was. */
export function msmePaymentDays(agreed: number | null): number {
  // Rows saved before the contract capped the days may hold more: the law's limit still applies.
  return agreed === null ? 15 : Math.min(agreed, MSME_MAX_PAYMENT_DAYS);
}

/** An ISO date plus days. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (ISO dates). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Today's date in India. */
export function todayInIndia(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(now);
}

interface MsmeVendor {
  msmeUdyam: string | null;
  paymentTermsDays: number | null;
  noPoNeeded: boolean;
  /** A new bank account waits for a second person: nothing is paid to the vendor until then. */
  bankHold?: boolean;
}

/** A copy held until decided: the one document of a pair Reconcile refuses to pay, named from Review. */
function isHeldCopy(doc: MatchableDocument): boolean {
  return doc.duplicateOf !== null && doc.duplicateDecision !== 'not_duplicate';
}

/**
 * What a person's decisions make of the match's verdict: an override clears exceptions; an invoice that
 * needs no purchase order (its vendor or flow says so) and has no other exception waits for approval
 * instead of "Do not pay", and an approval in Review (or an override) makes it payable.
 */
function decideInvoice(
  result: InvoiceResult,
  { doc, override, vendor }: { doc: MatchableDocument; override: boolean; vendor: MsmeVendor | undefined },
): Pick<InvoiceMatch, 'effectiveStatus' | 'payable'> {
  const onlyNoPo = result.reasons.length > 0 && result.reasons.every((r) => r.code === 'no_po');
  if (onlyNoPo && (vendor?.noPoNeeded || doc.flowNoPoNeeded))
    return doc.approvedAt || override
      ? { effectiveStatus: 'no_po_approved', payable: 'yes' }
      : { effectiveStatus: 'no_po_needs_approval', payable: 'exception' };
  if (override) return { effectiveStatus: 'overridden', payable: 'yes' };
  return { effectiveStatus: result.status, payable: result.shouldBePaid };
}

/** What an invoice's vendor's pending bank change does to it: "Hold", whatever the match says. */
function holdForBankChange(
  decided: Pick<InvoiceMatch, 'effectiveStatus' | 'payable'>,
  vendor: MsmeVendor | undefined,
): Pick<InvoiceMatch, 'effectiveStatus' | 'payable'> {
  return vendor?.bankHold ? { ...decided, payable: 'exception' } : decided;
}

/** The reason shown on an invoice held for its vendor's new bank account. */
const BANK_HOLD_REASON = {
  code: 'vendor_bank_change',
  line: null,
  message: "The vendor's bank account changed: on hold until a second person approves the new account",
};

function toInvoiceMatch({
  result,
  byId,
  overrides,
  vendor,
  today,
}: {
  result: InvoiceResult;
  byId: Map<string, MatchableDocument>;
  overrides: OverrideRow[];
  vendor: MsmeVendor | undefined;
  today: string;
}): InvoiceMatch {
  const doc = byId.get(result.file)!;
  const e = (doc.extraction ?? {}) as Extraction;
  const po = result.matchedPo ? byId.get(result.matchedPo) : undefined;
  const poLines = ((po?.extraction ?? {}) as Extraction).lineItems ?? [];
  const codes = [...new Set(result.reasons.map((r) => r.code))];
  const { override, overrides: all } = findOverride(overrides, codes);
  const original = isHeldCopy(doc) ? byId.get(doc.duplicateOf!) : undefined;
  const copyOf = isHeldCopy(doc)
    ? original
      ? toRef(original)
      : {
          id: doc.duplicateOf!,
          flowId: doc.flowId,
          fileName: 'a document already read',
          documentNumber: null,
        }
    : null;
  return {
    invoice: toRef(doc),
    vendorName: str(e.fields?.vendorName),
    vendorGstin: result.vendorGstin,
    documentDate: str(e.fields?.documentDate),
    total: num(e.fields?.total),
    poNumber: result.poNumber,
    po: po ? toRef(po) : null,
    grns: result.matchedGrns
      .map((id) => byId.get(id))
      .filter((d) => d !== undefined)
      .map(toRef),
    status: result.status,
    shouldBePaid: result.shouldBePaid,
    ...holdForBankChange(decideInvoice(result, { doc, override: override !== null, vendor }), vendor),
    verified: doc.status === 'done' && !isHeldCopy(doc),
    copyOf,
    reasons: [
      ...(vendor?.bankHold ? [BANK_HOLD_REASON] : []),
      ...result.reasons.map((r) => ({
        code: r.code,
        line: r.line ?? null,
        // A held copy says which document it copies and where it is decided, not the rule's guess.
        message:
          r.code === 'duplicate_invoice' && copyOf
            ? `Looks like a copy of ${copyOf.documentNumber ?? copyOf.fileName}: held until a person decides in Review`
            : r.message,
      })),
    ],
    lines: result.lines.map((l) => {
      const item = e.lineItems?.[l.line - 1] ?? {};
      const poItem = l.poLine ? (poLines[l.poLine - 1] ?? {}) : {};
      return {
        line: l.line,
        poLine: l.poLine,
        status: l.status,
        description: str(item.description),
        billed: l.billed,
        rate: l.rate,
        poDescription: str(poItem.description),
        ordered: num(poItem.quantity) ?? num(poItem.orderedQuantity),
        poRate: l.poRate,
        received: l.received,
        alreadyBilled: l.alreadyBilled,
      };
    }),
    override,
    msme: vendor?.msmeUdyam
      ? msmeClock(
          vendor,
          result.matchedGrns.map((id) => byId.get(id)),
          today,
        )
      : null,
    overrides: all,
  };
}

/** The MSME clock of an invoice: from the latest acceptance (GRN date) of its goods. */
function msmeClock(vendor: MsmeVendor, grns: Array<MatchableDocument | undefined>, today: string) {
  const dates = grns
    .map((g) => str(((g?.extraction ?? {}) as Extraction).fields?.documentDate))
    .filter((d): d is string => d !== null && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(d))
    .sort();
  const acceptedOn = dates.at(-1) ?? null;
  const days = msmePaymentDays(vendor.paymentTermsDays);
  const payBy = acceptedOn ? addDays(acceptedOn, days) : null;
  return {
    udyam: vendor.msmeUdyam as string,
    acceptedOn,
    days,
    payBy,
    daysLeft: payBy ? daysBetween(today, payBy) : null,
  };
}

function toPoMatch(result: PoResult, byId: Map<string, MatchableDocument>): PoMatch {
  const doc = byId.get(result.file)!;
  const e = (doc.extraction ?? {}) as Extraction;
  return {
    po: toRef(doc),
    vendorName: str(e.fields?.vendorName),
    vendorGstin: result.vendorGstin,
    receipt: result.receipt,
    billing: result.billing,
    lines: result.lines.map((l) => ({
      ...l,
      description: str(e.lineItems?.[l.line - 1]?.description),
    })),
  };
}

/** The organisation's tolerances and each vendor's own, as the match takes them. */
function readTolerances(
  settings: Awaited<ReturnType<typeof findReconcileSettings>>,
  vendorRows: VendorListRow[],
): { tolerances: Tolerances; vendorTolerances: Map<string, Partial<Tolerances>> } {
  const tolerances: Tolerances = settings
    ? {
        qtyPct: Number(settings.qtyTolerancePct),
        pricePct: Number(settings.priceTolerancePct),
        amountRupees: Number(settings.amountTolerancePaise) / 100,
      }
    : DEFAULT_TOLERANCES;
  // Tolerances agreed with particular vendors: each field set replaces the organisation's.
  const vendorTolerances = new Map<string, Partial<Tolerances>>();
  for (const v of vendorRows) {
    if (!v.gstin) continue;
    const own: Partial<Tolerances> = {};
    if (v.qty_tolerance_pct !== null) own.qtyPct = Number(v.qty_tolerance_pct);
    if (v.price_tolerance_pct !== null) own.pricePct = Number(v.price_tolerance_pct);
    if (v.amount_tolerance_paise !== null) own.amountRupees = Number(v.amount_tolerance_paise) / 100;
    if (Object.keys(own).length > 0) vendorTolerances.set(v.gstin, own);
  }
  return { tolerances, vendorTolerances };
}

/** Invoice totals (rupees, summed in paise) split by trust; held copies count in neither. */
function sumByTrust(invoices: InvoiceMatch[]): Reconciliation['totals'] {
  let verified = 0;
  let awaiting = 0;
  let verifiedCount = 0;
  let awaitingReviewCount = 0;
  for (const i of invoices) {
    if (i.copyOf) continue;
    const paise = Math.round((i.total ?? 0) * 100);
    if (i.verified) {
      verified += paise;
      verifiedCount++;
    } else {
      awaiting += paise;
      awaitingReviewCount++;
    }
  }
  return { verified: verified / 100, awaitingReview: awaiting / 100, verifiedCount, awaitingReviewCount };
}

/**
 * `GET /api/reconcile`: the organisation's invoices and purchase orders, matched. Review's duplicate
 * decisions replace the match's own guess: a possible copy no person has cleared is the duplicate (never
 * the original it copies), and one a person approved as "not a duplicate" is an invoice like any other.
 */
export async function getReconciliation(
  db: Db,
  membership: Membership,
  now: Date = new Date(),
): Promise<Reconciliation> {
  const [docs, overrideRows, vendorRows, settings, flowRows] = await Promise.all([
    listMatchableDocuments(db, membership.organizationId),
    listOverrides(db, membership.organizationId),
    listVendorRows(db, membership.organizationId),
    findReconcileSettings(db, membership.organizationId),
    listFlowRows(db, membership.organizationId),
  ]);
  const { tolerances, vendorTolerances } = readTolerances(settings, vendorRows);
  const today = todayInIndia(now);
  const vendorByGstin = new Map(
    vendorRows.map((v) => [
      v.gstin,
      {
        msmeUdyam: v.msme_udyam,
        paymentTermsDays: v.payment_terms_days,
        noPoNeeded: v.no_po_needed,
        bankHold: Boolean(v.bank_hold),
      },
    ]),
  );
  const byId = new Map(docs.map((d) => [d.id, d]));
  // The match names documents by `file`: here their ids, so results map back to rows exactly.
  const input: MatchDocument[] = docs.map((d) => {
    const e = (d.extraction ?? {}) as Extraction;
    return {
      file: d.id,
      documentType: e.documentType ?? null,
      fields: e.fields ?? {},
      lineItems: e.lineItems ?? [],
      error: e.error ?? null,
    };
  });
  // Every invoice carries Review's decision, so the match never makes a second one of its own.
  const duplicates = new Map(docs.map((d) => [d.id, isHeldCopy(d)]));
  const results = reconcileDocuments(input, tolerances, { vendorTolerances, duplicates });
  const overridesOf = new Map<string, OverrideRow[]>();
  for (const o of overrideRows) overridesOf.set(o.documentId, [...(overridesOf.get(o.documentId) ?? []), o]);
  const invoices = results
    .filter((r): r is InvoiceResult => r.kind === 'invoice')
    .map((r) =>
      toInvoiceMatch({
        result: r,
        byId,
        overrides: overridesOf.get(r.file) ?? [],
        vendor: vendorByGstin.get(r.vendorGstin?.toUpperCase() ?? null),
        today,
      }),
    )
    .sort(compareForWork);
  const pos = results.filter((r): r is PoResult => r.kind === 'po').map((r) => toPoMatch(r, byId));
  const count = (...statuses: InvoiceMatch['effectiveStatus'][]) =>
    invoices.filter((i) => statuses.includes(i.effectiveStatus)).length;
  return {
    invoices,
    pos,
    counts: {
      invoices: invoices.length,
      matched: count('matched', 'matched_within_tolerance'),
      exceptions: count('exception'),
      overridden: count('overridden', 'no_po_approved'),
      needsApproval: count('no_po_needs_approval'),
      heldCopies: invoices.filter((i) => i.copyOf).length,
      pos: pos.length,
    },
    totals: sumByTrust(invoices),
    flows: flowRows
      .filter((f) => f.types.includes('INVOICE'))
      .map((f) => ({ id: f.id, name: f.name, noPoNeeded: f.noPoNeeded })),
    tolerances,
    msmeDue: invoices
      .filter((i) => i.msme?.daysLeft != null && i.msme.daysLeft <= 7)
      .sort((a, b) => (a.msme?.daysLeft ?? 0) - (b.msme?.daysLeft ?? 0))
      .map((i) => i.invoice.id),
    today,
  };
}

/** Whether an invoice is in a Reconcile view. */
function inView(i: InvoiceMatch, view: ReconcileQuery['view']): boolean {
  switch (view) {
    case 'exception':
      return i.effectiveStatus === 'exception' && !i.copyOf;
    case 'needs_approval':
      return i.effectiveStatus === 'no_po_needs_approval';
    case 'held':
      return i.copyOf !== null;
    case 'matched':
      return i.effectiveStatus === 'matched' || i.effectiveStatus === 'matched_within_tolerance';
    case 'cleared':
      return i.effectiveStatus === 'overridden' || i.effectiveStatus === 'no_po_approved';
    default:
      return true;
  }
}

/**
 * `GET /api/reconcile?view=&vendor=&q=&page=`: the counts and totals of the whole match, and one page of
 * the invoices the filters find (exceptions first), so a thousand invoices never reach the browser at once.
 */
export async function getReconcilePage(
  db: Db,
  membership: Membership,
  query: ReconcileQuery,
): Promise<ReconcilePage> {
  const all = await getReconciliation(db, membership);
  const needle = query.q?.toLowerCase() ?? '';
  const matchesText = (i: InvoiceMatch) =>
    !needle ||
    [i.invoice.documentNumber, i.invoice.fileName, i.vendorName, i.vendorGstin, i.poNumber].some((v) =>
      v?.toLowerCase().includes(needle),
    );
  const vendor = query.vendor?.toUpperCase();
  const found = all.invoices.filter(
    (i) => inView(i, query.view) && (!vendor || i.vendorGstin === vendor) && matchesText(i),
  );
  const vendors = new Map<string, { gstin: string; name: string; invoices: number }>();
  for (const i of all.invoices) {
    if (!i.vendorGstin) continue;
    const v = vendors.get(i.vendorGstin) ?? {
      gstin: i.vendorGstin,
      name: i.vendorName ?? i.vendorGstin,
      invoices: 0,
    };
    v.invoices++;
    vendors.set(i.vendorGstin, v);
  }
  const pos = vendor ? all.pos.filter((p) => p.vendorGstin === vendor) : all.pos;
  const due = new Set(all.msmeDue);
  const start = (query.page - 1) * RECONCILE_PAGE_SIZE;
  return {
    ...all,
    invoices: found.slice(start, start + RECONCILE_PAGE_SIZE),
    pos: pos.slice(0, 50),
    posTotal: pos.length,
    page: query.page,
    pageSize: RECONCILE_PAGE_SIZE,
    filtered: found.length,
    vendors: [...vendors.values()].sort((a, b) => a.name.localeCompare(b.name)),
    msmeDueInvoices: all.invoices.filter((i) => due.has(i.invoice.id)),
  };
}

/** Work order: exceptions first, then what waits for a person's approval, then the rest; newest first. */
function compareForWork(a: InvoiceMatch, b: InvoiceMatch): number {
  const rank = (i: InvoiceMatch) =>
    i.effectiveStatus === 'exception' ? 0 : i.effectiveStatus === 'no_po_needs_approval' ? 1 : 2;
  return (
    rank(a) - rank(b) ||
    (b.documentDate ?? '').localeCompare(a.documentDate ?? '') ||
    a.invoice.fileName.localeCompare(b.invoice.fileName)
  );
}

/**
 * `POST /api/reconcile/invoices/:id/override`: a person clears an invoice's exceptions with a written
 * reason (kept with who and when; a later, different exception is not covered). Only an invoice with
 * exceptions can be overridden.
 */
export async function overrideInvoice(
  db: Db,
  {
    user,
    membership,
    documentId,
    input,
    jobs,
  }: {
    user: SessionUser;
    membership: Membership;
    documentId: string;
    input: { reason: string };
    /** Sends the rewrite of the invoice flows' outputs (absent in tests without a queue). */
    jobs?: JobSender | undefined;
  },
): Promise<InvoiceMatch> {
  const before = await getReconciliation(db, membership);
  // The organisation's own invoices only: another organisation's id is simply not among them.
  const match = before.invoices.find((i) => i.invoice.id === documentId);
  if (!match) throw new AppError('not_found', 'This document is not an invoice the match has read');
  if (match.status !== 'exception')
    throw new AppError('conflict', 'This invoice has no exception to override');
  await requireOverrideByAnother(db, { user, membership, documentId });
  await insertOverride(db, {
    organizationId: membership.organizationId,
    documentId,
    reason: input.reason,
    codes: [...new Set(match.reasons.map((r) => r.code))],
    userId: user.id,
    userName: user.name,
  });
  // Invoice flows' "Matches" tabs change with it.
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'reconcile.overridden',
    message: `${user.name} cleared the exceptions of ${match.invoice.fileName}: ${input.reason}`,
    userId: user.id,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'reconcile.override',
    actor: user,
    documentId,
    summary: `${user.name} cleared the exceptions of ${match.invoice.fileName}`,
    details: { reason: input.reason, codes: [...new Set(match.reasons.map((r) => r.code))] },
  });
  const after = await getReconciliation(db, membership);
  return after.invoices.find((i) => i.invoice.id === documentId)!;
}

/** `PUT /api/reconcile/tolerances`: the organisation's quantity %, rate % and ₹ per line. */
export async function setTolerances(
  db: Db,
  {
    user,
    membership,
    input,
    jobs,
  }: { user: SessionUser; membership: Membership; input: Tolerances; jobs?: JobSender | undefined },
): Promise<Tolerances> {
  await saveReconcileSettings(db, membership.organizationId, {
    qtyTolerancePct: input.qtyPct,
    priceTolerancePct: input.pricePct,
    amountTolerancePaise: Math.round(input.amountRupees * 100),
  });
  // Invoice flows' "Matches" tabs change with it.
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'reconcile.tolerances',
    message: `${user.name} set match tolerances: quantity ${input.qtyPct}%, rate ${input.pricePct}%, ₹${input.amountRupees} a line`,
    userId: user.id,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'reconcile.tolerances',
    actor: user,
    summary: `${user.name} set match tolerances: quantity ${input.qtyPct}%, rate ${input.pricePct}%, ₹${input.amountRupees} a line`,
    details: { ...input },
  });
  return input;
}

/** `PUT /api/reconcile/flows/:id/no-po`: the flow's invoices need no purchase order (or do again). */
export async function setFlowNoPo(
  db: Db,
  {
    user,
    membership,
    input,
    jobs,
  }: {
    user: SessionUser;
    membership: Membership;
    input: { flowId: string; noPoNeeded: boolean };
    jobs?: JobSender | undefined;
  },
): Promise<{ noPoNeeded: boolean }> {
  // An id that is not a uuid names no flow (the column would refuse it).
  const name = UUID_RE.test(input.flowId)
    ? await setFlowNoPoNeeded(db, { organizationId: membership.organizationId, ...input })
    : null;
  if (name === null) throw new AppError('not_found', 'No such flow');
  await refreshFlowOutputs({ db, jobs }, membership.organizationId);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'reconcile.no_po',
    message: input.noPoNeeded
      ? `${user.name} marked the invoices of "${name}" as needing no purchase order`
      : `${user.name} marked the invoices of "${name}" as needing a purchase order again`,
    userId: user.id,
  });
  return { noPoNeeded: input.noPoNeeded };
}
