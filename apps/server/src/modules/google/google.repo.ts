import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { googleConnections } from '../../db/schema/google.ts';

/** A stored Google connection row. */
export type GoogleConnectionRow = typeof googleConnections.$inferSelect;

/** The organisation's Google connection row, if any. */
export async function findConnection(
  db: Db,
  organizationId: string,
): Promise<GoogleConnectionRow | undefined> {
  const rows = await db
    .select()
    .from(googleConnections)
    .where(eq(googleConnections.organizationId, organizationId))
    .limit(1);
  return rows[0];
}

/** Stores freshly granted tokens (already encrypted), creating the row on first connect. */
export async function upsertTokens(
  db: Db,
  values: {
    organizationId: string;
    connectedByUserId: string | null;
    email: string | null;
    scopes: string;
    refreshTokenEnc: string;
    accessTokenEnc: string | null;
    accessTokenExpiresAt: Date | null;
  },
): Promise<void> {
  const now = new Date();
  await db
    .insert(googleConnections)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: googleConnections.organizationId,
      set: {
        connectedByUserId: values.connectedByUserId,
        email: values.email,
        scopes: values.scopes,
        refreshTokenEnc: values.refreshTokenEnc,
        accessTokenEnc: values.accessTokenEnc,
        accessTokenExpiresAt: values.accessTokenExpiresAt,
        updatedAt: now,
      },
    });
}

/** Saves a refreshed access token. */
export async function updateAccessToken(
  db: Db,
  {
    organizationId,
    accessTokenEnc,
    expiresAt,
  }: { organizationId: string; accessTokenEnc: string; expiresAt: Date | null },
): Promise<void> {
  await db
    .update(googleConnections)
    .set({ accessTokenEnc, accessTokenExpiresAt: expiresAt, updatedAt: new Date() })
    .where(eq(googleConnections.organizationId, organizationId));
}

/** Forgets the tokens but keeps the folder/sheet set-up (a fresh authorisation follows). */
export async function clearTokens(db: Db, organizationId: string): Promise<void> {
  await db
    .update(googleConnections)
    .set({ refreshTokenEnc: null, accessTokenEnc: null, accessTokenExpiresAt: null, updatedAt: new Date() })
    .where(eq(googleConnections.organizationId, organizationId));
}

/** Removes the connection and its folder/sheet set-up. */
export async function deleteConnection(db: Db, organizationId: string): Promise<void> {
  await db.delete(googleConnections).where(eq(googleConnections.organizationId, organizationId));
}

/** Records the parent folder or the vendor master sheet. */
export async function updateSetup(
  db: Db,
  organizationId: string,
  set: Partial<
    Pick<GoogleConnectionRow, 'parentFolderId' | 'parentFolderName' | 'vendorSheetId' | 'vendorSheetName'>
  >,
): Promise<void> {
  await db
    .update(googleConnections)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(googleConnections.organizationId, organizationId));
}

/** Records the account e-mail (it can change when the user renames their Google account). */
export async function updateEmail(db: Db, organizationId: string, email: string): Promise<void> {
  await db
    .update(googleConnections)
    .set({ email, updatedAt: new Date() })
    .where(eq(googleConnections.organizationId, organizationId));
}
