import type { UploadResult } from '@bahi/contracts';
import { shareUploadedFiles } from '../../adapters/blobs/upload-blobs.ts';
import { getUploadDir, type IncomingFile, storeUploadedFiles } from '../../adapters/sources/upload.ts';
import {
  listUploadRows,
  sumOrganizationUploadBytes,
  type UploadRow,
  upsertUpload,
} from '../../adapters/sources/uploads.repo.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { requireFlow } from '../flows/flows.service.ts';

/** How much all .zip files of one request may expand to, as a multiple of the per-file limit (zip-bomb guard). */
const ZIP_EXPANSION_FACTOR = 8;

function toUploaded(row: UploadRow) {
  return {
    id: row.id,
    fileName: row.fileName,
    sha256: row.sha256,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Adds files to a flow's inbox: documents (and the documents inside .zip files) are stored content-addressed
 * under DATA_DIR/uploads/<org>/<flow>/ and listed in the uploads table; everything else comes back as
 * skipped with a reason. The next run of the flow picks the new files up.
 */
export async function addUploads(
  db: Db,
  {
    env,
    user,
    membership,
    flowId,
    files,
  }: { env: Env; user: SessionUser; membership: Membership; flowId: string; files: IncomingFile[] },
): Promise<UploadResult> {
  const flow = await requireFlow(db, membership, flowId);
  return (await addToInbox(db, { env, flow, files, uploadedByUserId: user.id })).result;
}

/**
 * Stores files in a flow's inbox within the organisation's storage left (archives unpacked), shares their
 * bytes with workers elsewhere, and lists them in the uploads table: a person's upload and a vendor's
 * alike. Returns the rows and what the upload answers.
 */
export async function addToInbox(
  db: Db,
  {
    env,
    flow,
    files,
    uploadedByUserId,
  }: {
    env: Env;
    flow: { id: string; organizationId: string };
    files: IncomingFile[];
    uploadedByUserId: string | null;
  },
): Promise<{ rows: UploadRow[]; result: UploadResult }> {
  const dir = getUploadDir(env.dataDir, flow.organizationId, flow.id);
  const used = await sumOrganizationUploadBytes(db, flow.organizationId);
  const { stored, skipped } = await storeUploadedFiles(dir, files, {
    maxFileBytes: env.flows.uploadMaxBytes,
    maxFiles: env.flows.maxFiles,
    maxExpandedBytes: env.flows.uploadMaxBytes * ZIP_EXPANSION_FACTOR,
    storageLeftBytes: Math.max(0, env.flows.orgStorageMaxBytes - used),
  });
  // On PostgreSQL, workers on other machines read the bytes from the database (adapters/blobs).
  await shareUploadedFiles(db, env, stored);
  const rows: UploadRow[] = [];
  for (const file of stored) {
    rows.push(
      await upsertUpload(db, {
        organizationId: flow.organizationId,
        flowId: flow.id,
        fileName: file.fileName,
        sha256: file.sha256,
        size: file.size,
        storedPath: file.storedPath,
        uploadedByUserId,
      }),
    );
  }
  const renamed = stored.flatMap((file) =>
    file.renamed ? [{ name: file.fileName, reason: file.renamed }] : [],
  );
  return { rows, result: { stored: rows.map(toUploaded), skipped, renamed } };
}

/** The flow's inbox, newest first. */
export async function listUploads(db: Db, membership: Membership, flowId: string) {
  const flow = await requireFlow(db, membership, flowId);
  return { items: (await listUploadRows(db, flow.id)).map(toUploaded) };
}
