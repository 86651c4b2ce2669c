import { join } from 'node:path';
import { gstr2bPeriod, readGstr2bFiles } from '@bahi/compliance';
import {
  GST_TABS,
  type GstDecisionInput,
  type GstReconciliation,
  type GstRow,
  type Gstr2bFile,
  type Gstr2bUploadResult,
  type GstSettings,
  type GstSupplier,
  type GstTab,
} from '@bahi/contracts';
import type { BlobStore } from '../../adapters/blobs/blob-store.ts';
import { createLocalBlobStore } from '../../adapters/blobs/local-blob-store.ts';
import { createPgBlobStore } from '../../adapters/blobs/pg-blob-store.ts';
import { hashBytes } from '../../adapters/sources/source.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { listGstins } from '../organizations/organizations.repo.ts';
import {
  type DecisionRow,
  findComplianceSettings,
  type Gstr2bFileRow,
  insertDecision,
  insertGstr2bFile,
  listDecisions,
  listGstr2bFiles,
  listRegisterInvoices,
  listVendorNames,
  saveComplianceSettings,
} from './gst.repo.ts';
import { buildGstRowsByGstin, type GstinFiles, type StoredDecision, tradeNamesOf } from './gst-match.ts';

/**
 * GSTR-2B against the books: files uploaded per return period, matched on every read with
 * @bahi/compliance over the organisation's read invoices (so a corrected or approved invoice is followed
 * at once, with nothing to recompute or go stale), people's decisions laid over the match.
 */

/** The largest GSTR-2B JSON accepted (a large buyer's month runs to a few megabytes). */
export const GSTR2B_MAX_BYTES = 25 * 1024 * 1024;

/** Where the bytes of uploaded 2B files live: the database with DATABASE_URL (every process reads it), else DATA_DIR. */
function gstr2bBlobs(db: Db, env: Pick<Env, 'databaseUrl' | 'dataDir'>): BlobStore {
  return env.databaseUrl ? createPgBlobStore(db) : createLocalBlobStore(join(env.dataDir, 'gstr2b'));
}

const NOT_2B =
  'This file is not a GSTR-2B: download the JSON of GSTR-2B for a return period from the GST portal (Returns › GSTR-2B › Download JSON)';

/** Whether a file's buyer GSTIN is one of the organisation's (null: the file or the profile names none). */
function isOwnGstin(gstin: string | null, own: ReadonlySet<string>): boolean | null {
  return gstin === null || own.size === 0 ? null : own.has(gstin);
}

/** The organisation's GSTINs, as compared (upper case, no spaces). */
async function ownGstins(db: Db, organizationId: string): Promise<Set<string>> {
  return new Set(
    (await listGstins(db, organizationId)).map((g) => g.gstin.replace(/\s+/g, '').toUpperCase()),
  );
}

function toFile(row: Gstr2bFileRow, current: boolean, own: ReadonlySet<string>): Gstr2bFile {
  return {
    id: row.id,
    period: row.period,
    gstin: row.gstin,
    fileName: row.fileName,
    documents: row.documentCount,
    sha256: row.sha256,
    size: row.size,
    uploadedBy: row.uploadedByName,
    uploadedAt: row.createdAt.toISOString(),
    current,
    ownGstin: isOwnGstin(row.gstin, own),
  };
}

/** The files in force: for each period and GSTIN the latest upload (a newer download replaces an older one). */
function currentFiles(rows: Gstr2bFileRow[]): Set<string> {
  const latest = new Map<string, Gstr2bFileRow>();
  for (const r of rows) latest.set(`${r.period}|${r.gstin ?? ''}`, r);
  return new Set([...latest.values()].map((r) => r.id));
}

/** Reads the bytes as a GSTR-2B file, or refuses them with what is wrong. */
function parseGstr2b(bytes: Uint8Array): { json: unknown; period: string; gstin: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new AppError('validation', `${NOT_2B}. This one is not JSON.`, { file: NOT_2B });
  }
  const period = gstr2bPeriod(json);
  const data = (json as { data?: { docdata?: unknown; gstin?: unknown } })?.data ?? json;
  const docdata = (data as { docdata?: unknown } | null)?.docdata;
  if (!period || typeof docdata !== 'object' || docdata === null)
    throw new AppError('validation', `${NOT_2B}. This one has no return period or no documents section.`, {
      file: NOT_2B,
    });
  const gstin = (data as { gstin?: unknown }).gstin;
  return { json, period, gstin: typeof gstin === 'string' ? gstin.trim().toUpperCase() : null };
}

/**
 * `POST /api/gst/2b`: keeps a GSTR-2B JSON for its return period. The same bytes uploaded again change
 * nothing (the stored file comes back, `created: false`); a different file of the same period and GSTIN
 * replaces the earlier one in the match (which stays listed).
 */
export async function uploadGstr2b(
  db: Db,
  {
    env,
    user,
    membership,
    file,
  }: { env: Env; user: SessionUser; membership: Membership; file: { name: string; bytes: Uint8Array } },
): Promise<Gstr2bUploadResult> {
  if (file.bytes.length > GSTR2B_MAX_BYTES)
    throw new AppError('payload_too_large', 'A GSTR-2B file may be at most 25 MB');
  const { json, period, gstin } = parseGstr2b(file.bytes);
  const sha256 = hashBytes(file.bytes);
  const organizationId = membership.organizationId;
  const blobKey = `${organizationId}/${sha256}.json`;
  await gstr2bBlobs(db, env).put(blobKey, file.bytes);
  const { row, created } = await insertGstr2bFile(db, {
    organizationId,
    period,
    gstin,
    fileName: file.name.slice(0, 255) || `GSTR-2B ${period}.json`,
    sha256,
    size: file.bytes.length,
    blobKey,
    content: json,
    documentCount: readGstr2bFiles([json]).length,
    uploadedByUserId: user.id,
    uploadedByName: user.name,
  });
  if (created)
    await recordActivity(db, {
      organizationId,
      kind: 'gst.2b_uploaded',
      message: `${user.name} uploaded GSTR-2B for ${period.slice(0, 2)}/${period.slice(2)} (${row.documentCount} documents)`,
      userId: user.id,
    });
  const [all, own] = await Promise.all([listGstr2bFiles(db, organizationId), ownGstins(db, organizationId)]);
  return { file: toFile(row, currentFiles(all).has(row.id), own), created };
}

function toStoredDecision(d: DecisionRow): StoredDecision {
  return {
    id: d.id,
    documentId: d.documentId,
    action: d.action as StoredDecision['action'],
    gstr2bKey: d.gstr2bKey,
    differences: d.differences,
    reason: d.reason,
    userName: d.userName,
    at: d.createdAt.toISOString(),
  };
}

/** The files in force by buyer GSTIN, in the order of their first upload. */
function groupByGstin(inForce: Gstr2bFileRow[]): GstinFiles[] {
  const groups = new Map<string | null, unknown[]>();
  for (const f of inForce) groups.set(f.gstin, [...(groups.get(f.gstin) ?? []), f.content]);
  return [...groups].map(([gstin, files]) => ({ gstin, files }));
}

/** Every row of the organisation, all periods and buyer GSTINs, and the files behind them. */
async function computeRows(db: Db, organizationId: string) {
  const [files, invoices, decisions, vendorNames, settings, own] = await Promise.all([
    listGstr2bFiles(db, organizationId),
    listRegisterInvoices(db, organizationId),
    listDecisions(db, organizationId),
    listVendorNames(db, organizationId),
    findComplianceSettings(db, organizationId),
    ownGstins(db, organizationId),
  ]);
  const toleranceRupees = toleranceOf(settings);
  const current = currentFiles(files);
  const inForce = files.filter((f) => current.has(f.id));
  const names = new Map<string, string>();
  for (const f of inForce) for (const [g, n] of tradeNamesOf(f.content)) names.set(g, n);
  for (const [g, n] of vendorNames) names.set(g, n);
  const rows = buildGstRowsByGstin({
    invoices,
    groups: groupByGstin(inForce),
    decisions: decisions.map(toStoredDecision),
    toleranceRupees,
    names,
  });
  return { rows, files: files.map((f) => toFile(f, current.has(f.id), own)), toleranceRupees };
}

/** The organisation's GSTR-2B amount tolerance in rupees (the contract's ₹1.00 until someone sets it). */
function toleranceOf(settings: Awaited<ReturnType<typeof findComplianceSettings>>): number {
  return (settings?.gstr2bTolerancePaise ?? 100) / 100;
}

const periodOrder = (p: string) => p.slice(2) + p.slice(0, 2);
const cents = (n: number) => Math.round(n * 100) / 100;

/** Supplier (PAN) roll-up of rows. */
export function rollUpSuppliers(rows: GstRow[]): GstSupplier[] {
  const byPan = new Map<string, GstSupplier>();
  for (const r of rows) {
    if (!r.pan) continue;
    const s = byPan.get(r.pan) ?? {
      pan: r.pan,
      vendorName: null,
      gstins: [],
      counts: Object.fromEntries(GST_TABS.map((t) => [t, 0])) as Record<GstTab, number>,
      itcBooks: 0,
      itcGstr2b: 0,
      itcAtRisk: 0,
    };
    s.vendorName ??= r.vendorName;
    const gstin = r.books?.gstin ?? r.gstr2b?.gstin;
    if (gstin && !s.gstins.includes(gstin)) s.gstins.push(gstin);
    s.counts[r.tab] += 1;
    const booksItc = r.books ? r.itc : 0;
    const gstr2bItc = r.gstr2b ? r.gstr2b.igst + r.gstr2b.cgst + r.gstr2b.sgst + r.gstr2b.cess : 0;
    s.itcBooks = cents(s.itcBooks + booksItc);
    s.itcGstr2b = cents(s.itcGstr2b + gstr2bItc);
    if (r.tab !== 'matched' && r.tab !== 'within_tolerance') s.itcAtRisk = cents(s.itcAtRisk + r.itc);
    byPan.set(r.pan, s);
  }
  return [...byPan.values()].sort((a, b) => b.itcAtRisk - a.itcAtRisk || a.pan.localeCompare(b.pan));
}

/** The buyer GSTINs of a period's files in force: the organisation's own first, then by GSTIN. */
function gstinsOf(files: Gstr2bFile[]): GstReconciliation['gstins'] {
  const seen = new Map<string | null, boolean | null>();
  for (const f of files) if (f.current) seen.set(f.gstin, f.ownGstin);
  const rank = (own: boolean | null) => (own === true ? 0 : own === null ? 1 : 2);
  return [...seen]
    .map(([gstin, ownGstin]) => ({ gstin, ownGstin }))
    .sort((a, b) => rank(a.ownGstin) - rank(b.ownGstin) || (a.gstin ?? '').localeCompare(b.gstin ?? ''));
}

/**
 * `GET /api/gst?period=&gstin=`: one return period and buyer GSTIN — its rows by tab, with counts, ITC at
 * stake and the supplier roll-up. Without a GSTIN, the period's first (an own GSTIN before another's).
 */
export async function getGstReconciliation(
  db: Db,
  membership: Membership,
  query: { period?: string | undefined; gstin?: string | undefined } = {},
): Promise<GstReconciliation> {
  const { rows: all, files, toleranceRupees } = await computeRows(db, membership.organizationId);
  const periods = [...new Set(files.filter((f) => f.current).map((f) => f.period))].sort((a, b) =>
    periodOrder(b).localeCompare(periodOrder(a)),
  );
  const shown = query.period ?? periods[0] ?? null;
  const periodFiles = files.filter((f) => f.period === shown);
  const gstins = gstinsOf(periodFiles);
  const gstin = (gstins.find((g) => g.gstin === query.gstin) ?? gstins[0])?.gstin ?? null;
  const rows =
    shown && gstins.length > 0 ? all.filter((r) => r.period === shown && r.buyerGstin === gstin) : [];
  return {
    periods,
    period: shown,
    gstins,
    gstin,
    files: periodFiles,
    tabs: GST_TABS.map((tab) => {
      const inTab = rows.filter((r) => r.tab === tab);
      return { tab, count: inTab.length, itc: cents(inTab.reduce((s, r) => s + r.itc, 0)) };
    }),
    rows,
    suppliers: rollUpSuppliers(rows),
    toleranceRupees,
  };
}

/** `GET /api/gst/settings`. */
export async function getGstSettings(db: Db, membership: Membership): Promise<GstSettings> {
  return { toleranceRupees: toleranceOf(await findComplianceSettings(db, membership.organizationId)) };
}

/**
 * `PUT /api/gst/settings`: the organisation's GSTR-2B amount tolerance. The match is worked out on every
 * read, so the next view is matched again with it; an accepted difference whose differences change with
 * the tolerance lapses, as after any other change.
 */
export async function setGstSettings(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: GstSettings },
): Promise<GstSettings> {
  const before = await getGstSettings(db, membership);
  const paise = Math.round(input.toleranceRupees * 100);
  await saveComplianceSettings(db, membership.organizationId, { gstr2bTolerancePaise: paise });
  const rupees = (p: number) => `₹${(p / 100).toFixed(2)}`;
  if (Math.round(before.toleranceRupees * 100) !== paise)
    await recordActivity(db, {
      organizationId: membership.organizationId,
      kind: 'gst.settings',
      message: `${user.name} set the GSTR-2B amount tolerance from ${rupees(before.toleranceRupees * 100)} to ${rupees(paise)}`,
      userId: user.id,
    });
  return { toleranceRupees: paise / 100 };
}

/** Why a decision cannot be taken on a row as it stands, or null when it can. */
function refusalOf(input: GstDecisionInput, row: GstRow, target: GstRow | undefined): string | null {
  const current = row.gstr2b?.key ?? null;
  if (input.action === 'accept') {
    if (row.status !== 'mismatch' && row.status !== 'probable_match')
      return 'Only a mismatch or a probable match has a difference to accept';
    if (current !== input.gstr2bKey) return 'The invoice is no longer paired with this 2B document';
    if (row.decided === 'accepted') return 'This difference is already accepted';
    return null;
  }
  if (input.action === 'unlink')
    return current === input.gstr2bKey ? null : 'The invoice is not paired with this 2B document';
  if (current === input.gstr2bKey)
    return row.decided === 'linked' ? 'The invoice is already linked to this 2B document' : null;
  if (!target) return 'This 2B document is not waiting for an invoice (it is paired or not in any 2B file)';
  // Each GSTIN's 2B is matched with the invoices billed to it: a pair across two GSTINs could never hold.
  if (target.buyerGstin !== row.buyerGstin)
    return `This 2B document is in the GSTR-2B of ${target.buyerGstin ?? 'a file that names no GSTIN'}, but the invoice is billed to ${row.buyerGstin ?? 'none of the GSTINs with a 2B file'}: correct the invoice's buyer GSTIN if it was misread`;
  return null;
}

/**
 * `POST /api/gst/decisions`: a person links an invoice with a 2B document, unlinks a pair, or accepts a
 * difference — always with a written reason, kept with who and when (rows only ever added).
 */
export async function decideGstRow(
  db: Db,
  { user, membership, input }: { user: SessionUser; membership: Membership; input: GstDecisionInput },
): Promise<GstRow> {
  const organizationId = membership.organizationId;
  const { rows } = await computeRows(db, organizationId);
  // The organisation's own invoices only: another organisation's id is simply not among them.
  const row = rows.find((r) => r.invoice?.id === input.documentId);
  if (!row) throw new AppError('not_found', 'This document is not an invoice of your purchase register');
  const target = rows.find((r) => r.key === `g:${input.gstr2bKey}`);
  const refusal = refusalOf(input, row, target);
  if (refusal) throw new AppError('conflict', refusal);
  await insertDecision(db, {
    organizationId,
    documentId: input.documentId,
    action: input.action,
    gstr2bKey: input.gstr2bKey,
    differences: input.action === 'accept' ? row.differences : null,
    reason: input.reason,
    userId: user.id,
    userName: user.name,
  });
  const words = { link: 'linked', unlink: 'unlinked', accept: 'accepted the difference on' }[input.action];
  await recordActivity(db, {
    organizationId,
    kind: `gst.${input.action}`,
    message: `${user.name} ${words} ${row.invoice!.fileName} (GSTR-2B): ${input.reason}`,
    userId: user.id,
  });
  const after = await computeRows(db, organizationId);
  return after.rows.find((r) => r.key === row.key)!;
}
