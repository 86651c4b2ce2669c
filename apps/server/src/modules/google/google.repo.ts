import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents } from '../../db/schema/flows.ts';
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

/**
 * The source paths of a flow's Drive documents among `driveIds` (their cache file names carry the Drive id
 * and content version each was read from): what an on-arrival Drive flow has already taken.
 */
export async function listTakenDriveSourcePaths(
  db: Db,
  scope: { organizationId: string; flowId: string },
  driveIds: string[],
): Promise<string[]> {
  const paths: string[] = [];
  // In slices: a folder of thousands of files must not become one giant IN list.
  for (let i = 0; i < driveIds.length; i += 500) {
    const rows = await db
      .select({ sourcePath: documents.sourcePath })
      .from(documents)
      .where(
        and(
          eq(documents.organizationId, scope.organizationId),
          eq(documents.flowId, scope.flowId),
          eq(documents.sourceKind, 'drive'),
          inArray(documents.sourceId, driveIds.slice(i, i + 500)),
        ),
      );
    for (const row of rows) if (row.sourcePath) paths.push(row.sourcePath);
  }
  return paths;
}
