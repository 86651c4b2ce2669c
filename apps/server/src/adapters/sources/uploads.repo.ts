import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { flowUploads } from '../../db/schema/index.ts';
import type { StoredUpload } from './upload.ts';

/** One stored upload row. */
export type UploadRow = typeof flowUploads.$inferSelect;

/** Records an upload; the same name + content uploaded again is one row. Returns the row either way. */
export async function upsertUpload(
  db: Db,
  values: {
    organizationId: string;
    flowId: string;
    fileName: string;
    sha256: string;
    size: number;
    storedPath: string;
    /** Null for files a flow took in by itself (e-mail attachments). */
    uploadedByUserId: string | null;
  },
): Promise<UploadRow> {
  await db
    .insert(flowUploads)
    .values(values)
    .onConflictDoNothing({ target: [flowUploads.flowId, flowUploads.fileName, flowUploads.sha256] });
  const [row] = await db
    .select()
    .from(flowUploads)
    .where(
      and(
        eq(flowUploads.flowId, values.flowId),
        eq(flowUploads.fileName, values.fileName),
        eq(flowUploads.sha256, values.sha256),
      ),
    );
  return row!;
}

/** A page of a flow's uploads by id (keyset), for the upload source. */
export async function listUploadPage(
  db: Db,
  { flowId, afterId, limit }: { flowId: string; afterId: string | null; limit: number },
): Promise<StoredUpload[]> {
  return db
    .select()
    .from(flowUploads)
    .where(
      afterId
        ? and(eq(flowUploads.flowId, flowId), gt(flowUploads.id, afterId))
        : eq(flowUploads.flowId, flowId),
    )
    .orderBy(asc(flowUploads.id))
    .limit(limit);
}

/** A flow's uploads, newest first. */
export async function listUploadRows(db: Db, flowId: string, limit = 500): Promise<UploadRow[]> {
  return db
    .select()
    .from(flowUploads)
    .where(eq(flowUploads.flowId, flowId))
    .orderBy(desc(flowUploads.createdAt))
    .limit(limit);
}

/** Bytes of uploads the organisation keeps, every flow together (for its storage quota). */
export async function sumOrganizationUploadBytes(db: Db, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${flowUploads.size})` })
    .from(flowUploads)
    .where(eq(flowUploads.organizationId, organizationId));
  return Number(row?.bytes ?? 0);
}
