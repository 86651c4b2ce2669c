import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  flowUploads,
  organizations,
  vendorBankChanges,
  vendorLinkDocuments,
  vendorLinks,
  vendorProfiles,
  vendorSubmissions,
  vendors,
} from '../../db/schema/index.ts';

/** One onboarding link row. */
export type VendorLinkRow = typeof vendorLinks.$inferSelect;
/** One submission row. */
export type VendorSubmissionRow = typeof vendorSubmissions.$inferSelect;
/** One onboarded vendor (per PAN). */
export type VendorProfileRow = typeof vendorProfiles.$inferSelect;
/** One pending or decided bank change. */
export type VendorBankChangeRow = typeof vendorBankChanges.$inferSelect;

/** Adds a link. */
export async function insertLink(db: Db, values: typeof vendorLinks.$inferInsert): Promise<VendorLinkRow> {
  const [row] = await db.insert(vendorLinks).values(values).returning();
  return row!;
}

/** The organisation's links, newest first. */
export async function listLinks(db: Db, organizationId: string): Promise<VendorLinkRow[]> {
  return db
    .select()
    .from(vendorLinks)
    .where(eq(vendorLinks.organizationId, organizationId))
    .orderBy(desc(vendorLinks.createdAt))
    .limit(200);
}

/** A link of the organisation by id. */
export async function findLink(
  db: Db,
  organizationId: string,
  id: string,
): Promise<VendorLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(vendorLinks)
    .where(and(eq(vendorLinks.organizationId, organizationId), eq(vendorLinks.id, id)));
  return row;
}

/** A link by its token's hash, with its organisation's name (the public form's only way in). */
export async function findLinkByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ link: vendorLinks, organizationName: organizations.legalName })
    .from(vendorLinks)
    .innerJoin(organizations, eq(organizations.id, vendorLinks.organizationId))
    .where(eq(vendorLinks.tokenHash, tokenHash));
  return row;
}

/** Revokes a link not yet revoked; undefined when there is none. */
export async function revokeLinkRow(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .update(vendorLinks)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(vendorLinks.organizationId, organizationId),
        eq(vendorLinks.id, id),
        isNull(vendorLinks.revokedAt),
      ),
    )
    .returning();
  return row;
}

/**
 * Takes the link's one submission: only an open link (or one sent back for changes) moves to `submitted`,
 * in one conditional UPDATE, so two tabs sending together cannot both get in.
 */
export async function claimLinkForSubmission(db: Db, linkId: string): Promise<boolean> {
  const rows = await db
    .update(vendorLinks)
    .set({ status: 'submitted', submittedAt: sql`now()` })
    .where(
      and(
        eq(vendorLinks.id, linkId),
        inArray(vendorLinks.status, ['open', 'changes_requested']),
        isNull(vendorLinks.revokedAt),
        sql`${vendorLinks.expiresAt} > now()`,
      ),
    )
    .returning({ id: vendorLinks.id });
  return rows.length === 1;
}

/** Sets a link's status (and the changes asked for, when sent back). */
export async function setLinkStatus(
  db: Db,
  { linkId, status, changesRequested }: { linkId: string; status: string; changesRequested?: string | null },
): Promise<void> {
  await db
    .update(vendorLinks)
    .set({
      status,
      ...(changesRequested !== undefined ? { changesRequested } : {}),
      ...(status === 'changes_requested' ? { submittedAt: null } : {}),
    })
    .where(eq(vendorLinks.id, linkId));
}

/** Adds a submission. */
export async function insertSubmission(db: Db, values: typeof vendorSubmissions.$inferInsert) {
  const [row] = await db.insert(vendorSubmissions).values(values).returning();
  return row!;
}

/** The organisation's submissions with their link's vendor name: pending first, then newest. */
export async function listSubmissions(db: Db, organizationId: string) {
  return db
    .select({ submission: vendorSubmissions, vendorName: vendorLinks.vendorName })
    .from(vendorSubmissions)
    .innerJoin(vendorLinks, eq(vendorLinks.id, vendorSubmissions.linkId))
    .where(eq(vendorSubmissions.organizationId, organizationId))
    .orderBy(sql`${vendorSubmissions.status} = 'pending' desc`, desc(vendorSubmissions.createdAt))
    .limit(200);
}

/** A pending submission, locked for the decision. */
export async function lockPendingSubmission(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(vendorSubmissions)
    .where(
      and(
        eq(vendorSubmissions.organizationId, organizationId),
        eq(vendorSubmissions.id, id),
        eq(vendorSubmissions.status, 'pending'),
      ),
    )
    .for('update');
  return row;
}

/** Records the decision on a submission. */
export async function decideSubmission(
  db: Db,
  { id, status, note, userId }: { id: string; status: string; note: string | null; userId: string },
): Promise<void> {
  await db
    .update(vendorSubmissions)
    .set({ status, note, decidedBy: userId, decidedAt: sql`now()` })
    .where(eq(vendorSubmissions.id, id));
}

/** Attaches (or replaces) a document of a link. */
export async function upsertLinkDocument(db: Db, values: typeof vendorLinkDocuments.$inferInsert) {
  await db
    .insert(vendorLinkDocuments)
    .values(values)
    .onConflictDoUpdate({
      target: [vendorLinkDocuments.linkId, vendorLinkDocuments.kind],
      set: {
        fileName: values.fileName,
        contentType: values.contentType,
        data: values.data,
        createdAt: sql`now()`,
      },
    });
}

/** The documents of a link, without their bytes. */
export async function listLinkDocuments(db: Db, linkIds: string[]) {
  if (linkIds.length === 0) return [];
  return db
    .select({
      id: vendorLinkDocuments.id,
      linkId: vendorLinkDocuments.linkId,
      kind: vendorLinkDocuments.kind,
      fileName: vendorLinkDocuments.fileName,
      size: sql<number>`octet_length(${vendorLinkDocuments.data})`.mapWith(Number),
    })
    .from(vendorLinkDocuments)
    .where(inArray(vendorLinkDocuments.linkId, linkIds));
}

/** One attached document with its bytes, scoped to the organisation. */
export async function findLinkDocument(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(vendorLinkDocuments)
    .where(and(eq(vendorLinkDocuments.organizationId, organizationId), eq(vendorLinkDocuments.id, id)));
  return row;
}

/** The onboarded vendor with this PAN. */
export async function findProfileByPan(db: Db, organizationId: string, pan: string) {
  const [row] = await db
    .select()
    .from(vendorProfiles)
    .where(and(eq(vendorProfiles.organizationId, organizationId), eq(vendorProfiles.pan, pan)));
  return row;
}

/** The vendor (other than `exceptId`) holding this bank account, or waiting to. */
export async function findBankHolder(
  db: Db,
  { organizationId, bankKey, exceptId }: { organizationId: string; bankKey: string; exceptId: string | null },
): Promise<string | undefined> {
  const notSelf = exceptId ? ne(vendorProfiles.id, exceptId) : undefined;
  const [held] = await db
    .select({ name: vendorProfiles.legalName })
    .from(vendorProfiles)
    .where(
      and(eq(vendorProfiles.organizationId, organizationId), eq(vendorProfiles.bankKey, bankKey), notSelf),
    );
  if (held) return held.name;
  const [pending] = await db
    .select({ name: vendorProfiles.legalName })
    .from(vendorBankChanges)
    .innerJoin(vendorProfiles, eq(vendorProfiles.id, vendorBankChanges.profileId))
    .where(
      and(
        eq(vendorBankChanges.organizationId, organizationId),
        eq(vendorBankChanges.bankKey, bankKey),
        eq(vendorBankChanges.status, 'pending'),
        exceptId ? ne(vendorBankChanges.profileId, exceptId) : undefined,
      ),
    );
  return pending?.name;
}

/** Adds an onboarded vendor. */
export async function insertProfile(db: Db, values: typeof vendorProfiles.$inferInsert) {
  const [row] = await db.insert(vendorProfiles).values(values).returning();
  return row!;
}

/** Updates an onboarded vendor. */
export async function updateProfile(db: Db, id: string, values: Partial<typeof vendorProfiles.$inferInsert>) {
  await db
    .update(vendorProfiles)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(vendorProfiles.id, id));
}

/**
 * Puts each GSTIN under the onboarded vendor: a GSTIN the master already knows (learned from documents)
 * is linked and named; a new one is added.
 */
export async function attachGstins(
  db: Db,
  {
    organizationId,
    profileId,
    gstins,
    name,
    pan,
  }: { organizationId: string; profileId: string; gstins: string[]; name: string; pan: string },
): Promise<void> {
  for (const gstin of gstins) {
    await db
      .insert(vendors)
      .values({ organizationId, gstin, name, pan, stateCode: gstin.slice(0, 2), profileId })
      .onConflictDoUpdate({
        target: [vendors.organizationId, vendors.gstin],
        set: { profileId, pan, updatedAt: sql`now()` },
      });
  }
}

/** Ids of the organisation's vendor rows for these GSTINs. */
export async function vendorIdsByGstin(db: Db, organizationId: string, gstins: string[]): Promise<string[]> {
  if (!gstins.length) return [];
  const rows = await db
    .select({ id: vendors.id })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), inArray(vendors.gstin, gstins)));
  return rows.map((r) => r.id);
}

/** Adds a bank change waiting for a second person. */
export async function insertBankChange(db: Db, values: typeof vendorBankChanges.$inferInsert) {
  const [row] = await db.insert(vendorBankChanges).values(values).returning();
  return row!;
}

/** The organisation's pending bank changes with the vendor's name, PAN and current account. */
export async function listPendingBankChanges(db: Db, organizationId: string) {
  return db
    .select({ change: vendorBankChanges, profile: vendorProfiles })
    .from(vendorBankChanges)
    .innerJoin(vendorProfiles, eq(vendorProfiles.id, vendorBankChanges.profileId))
    .where(and(eq(vendorBankChanges.organizationId, organizationId), eq(vendorBankChanges.status, 'pending')))
    .orderBy(desc(vendorBankChanges.createdAt));
}

/** A pending bank change, locked for the decision. */
export async function lockPendingBankChange(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select({ change: vendorBankChanges, profile: vendorProfiles })
    .from(vendorBankChanges)
    .innerJoin(vendorProfiles, eq(vendorProfiles.id, vendorBankChanges.profileId))
    .where(
      and(
        eq(vendorBankChanges.organizationId, organizationId),
        eq(vendorBankChanges.id, id),
        eq(vendorBankChanges.status, 'pending'),
      ),
    )
    .for('update', { of: vendorBankChanges });
  return row;
}

/** Records the decision on a bank change. */
export async function decideBankChange(
  db: Db,
  { id, status, userId }: { id: string; status: string; userId: string },
) {
  await db
    .update(vendorBankChanges)
    .set({ status, decidedBy: userId, decidedAt: sql`now()` })
    .where(eq(vendorBankChanges.id, id));
}

/** Marks stored uploads as come through a vendor's link. */
export async function markUploadsFromLink(
  db: Db,
  { uploadIds, linkId }: { uploadIds: string[]; linkId: string },
) {
  if (uploadIds.length === 0) return;
  await db.update(flowUploads).set({ vendorLinkId: linkId }).where(inArray(flowUploads.id, uploadIds));
}

/** The GSTINs under an onboarded vendor. */
export async function listProfileGstins(
  db: Db,
  organizationId: string,
  profileId: string,
): Promise<string[]> {
  const rows = await db
    .select({ gstin: vendors.gstin })
    .from(vendors)
    .where(and(eq(vendors.organizationId, organizationId), eq(vendors.profileId, profileId)));
  return rows.flatMap((r) => (r.gstin ? [r.gstin] : []));
}
