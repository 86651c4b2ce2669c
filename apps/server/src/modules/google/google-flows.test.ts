import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../config/env.ts';
import { documents } from '../../db/schema/flows.ts';
import { googleConnections } from '../../db/schema/google.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { isAppError } from '../../lib/app-error.ts';
import { type GoogleStandIn, installLoopbackGuard, startGoogleStandIn } from '../../test/google-stand-in.ts';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { getDocumentFile } from '../documents/documents.service.ts';
import { updateFlowRow } from '../flows/flows.repo.ts';
import { createWorkflow, requireFlow } from '../flows/flows.service.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  type RecordingSender,
  readFixture,
} from '../flows/test-support.ts';
import { reprocessDocument, retryDocument } from '../runs/document-reruns.ts';
import { processRun } from '../runs/run-leader.ts';
import { startRun } from '../runs/runs.service.ts';
import { createFlowSpreadsheet, writeFlowToGoogleSheet } from '../sheets/google-sheet-sink.ts';
import { loadSheetContent } from '../sheets/sheets.service.ts';
import { addUploads } from '../uploads/uploads.service.ts';
import { getDriveCacheDir, sweepDriveCache, sweepDriveCaches } from './drive-cache.ts';
import { createFlowDriveSource, locateDriveDocumentFile } from './drive-source.ts';
import { buildConsentUrl, completeOAuth, disconnectGoogle, getGoogleStatus } from './google.service.ts';

// The Google pieces flows use, on a real database with the real engine: connect (service level), read a
// Drive folder, create the output spreadsheet, write the processed rows — exactly once.

let t: TestDb;
let env: Env;
let cleanupEnv: () => Promise<void>;
let jobs: RecordingSender;
let ctx: JobContext;
let google: GoogleStandIn;
let guard: ReturnType<typeof installLoopbackGuard>;
let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  guard = installLoopbackGuard();
  google = await startGoogleStandIn();
  t = await createTestDb();
  ({ env, cleanup: cleanupEnv } = await createTestEnv({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_OAUTH_BASE_URL: google.url,
    GOOGLE_API_BASE_URL: google.url,
  }));
  jobs = createRecordingSender();
  ctx = createTestJobContext(t.db, { env, jobs });
  member = await createMember(t.db);
});

afterAll(async () => {
  await ctx?.executor.close();
  await t?.close();
  await cleanupEnv?.();
  await google?.close();
  guard?.restore();
});

/** Connects the member's organisation the way the popup does, at the service level. */
async function connect() {
  const consent = await fetch(await buildConsentUrl(env, member.user, member.membership), {
    redirect: 'manual',
  });
  const back = new URL(consent.headers.get('location') ?? '');
  await completeOAuth(t.db, {
    env,
    sessionUser: member.user,
    query: {
      code: back.searchParams.get('code') ?? undefined,
      state: back.searchParams.get('state') ?? undefined,
    },
  });
}

async function drainJobs(): Promise<void> {
  while (jobs.sent.length > 0) {
    const job = jobs.sent.shift()!;
    if (job.name === 'flow-run') await processRun((job.payload as { runId: string }).runId, ctx);
  }
}

describe('Google for flows', () => {
  it('needs a connection: without one every entry point says google_auth_required', async () => {
    const link = 'https://drive.google.com/drive/folders/abcdefghijklmnop';
    const error = await createFlowDriveSource(
      { db: t.db, env },
      { organizationId: member.membership.organizationId, url: link },
    ).catch((e: unknown) => e);
    expect(isAppError(error, 'google_auth_required')).toBe(true);
    expect((error as Error).message).toBe(
      'Google authorization required. Please authorize access to your Google account.',
    );
  });

  it('reads a Drive folder, writes the engine rows to the sheet once, and a re-write adds none', async () => {
    await connect();
    const status = await getGoogleStatus(t.db, env, member.membership.organizationId);
    expect(status).toMatchObject({ connected: true, missingScopes: [] });
    // A partial consent (the user unticked Sheets) is shown as missing, so the card offers to reconnect.
    await t.db
      .update(googleConnections)
      .set({ scopes: status.scopes.filter((s) => !s.endsWith('/spreadsheets')).join(' ') })
      .where(eq(googleConnections.organizationId, member.membership.organizationId));
    expect((await getGoogleStatus(t.db, env, member.membership.organizationId)).missingScopes).toEqual([
      'https://www.googleapis.com/auth/spreadsheets',
    ]);
    await t.db
      .update(googleConnections)
      .set({ scopes: status.scopes.join(' ') })
      .where(eq(googleConnections.organizationId, member.membership.organizationId));

    const folder = google.addFolder('Invoices');
    for (const name of ['invoice-011.pdf', 'invoice-018.pdf'])
      google.addFile({
        name,
        mimeType: 'application/pdf',
        content: Buffer.from(await readFixture(name)),
        parent: folder,
      });
    const source = await createFlowDriveSource(
      { db: t.db, env },
      {
        organizationId: member.membership.organizationId,
        url: `https://drive.google.com/drive/folders/${folder}`,
      },
    );
    const names: string[] = [];
    for await (const entry of source.list()) if ('file' in entry) names.push(entry.file.name);
    expect(names.sort()).toEqual(['invoice-011.pdf', 'invoice-018.pdf']);

    // Rows come from a real run of the real engine (uploads here: the run's Drive branch is wired by flows).
    const wf = await createWorkflow(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      input: {
        name: 'Invoices to Sheets',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Invoices' },
        },
      },
    });
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: wf.id,
      files: [
        { name: 'invoice-011.pdf', bytes: await readFixture('invoice-011.pdf') },
        { name: 'invoice-040.pdf', bytes: await readFixture('invoice-040.pdf') },
      ],
    });
    await startRun(t.db, {
      env,
      jobs,
      user: member.user,
      flow: await requireFlow(t.db, member.membership, wf.id),
    });
    await drainJobs();

    const created = await createFlowSpreadsheet(t.db, {
      env,
      organizationId: member.membership.organizationId,
      input: {
        title: 'Invoices to Sheets',
        type: 'INVOICE',
      },
    });
    const flow = await requireFlow(t.db, member.membership, wf.id);
    const io = flow.io as { input: unknown; output: unknown };
    await updateFlowRow(t.db, {
      organizationId: member.membership.organizationId,
      flowId: flow.id,
      values: {
        io: {
          input: io.input,
          output: { kind: 'sheets', sheetId: created.spreadsheetId, sheetName: 'Invoices' },
        },
      } as never,
    });
    const sheetsFlow = await requireFlow(t.db, member.membership, wf.id);

    const first = await writeFlowToGoogleSheet(t.db, env, sheetsFlow);
    const content = await loadSheetContent(t.db, env, sheetsFlow);
    expect(content.documents.length).toBe(2);
    expect(first.appended).toEqual({ documents: 2, lines: content.lines.length });

    const ss = google.spreadsheets.get(created.spreadsheetId)!;
    const docsTab = ss.sheets.find((s) => s.title === 'Documents')!;
    const numberCol = content.documentColumns.findIndex((c) => c.key === 'documentNumber');
    expect(docsTab.rows.slice(1).map((r) => r[numberCol])).toEqual(
      content.documents.map((d) => String(d.documentNumber ?? '')),
    );
    expect(ss.sheets.find((s) => s.title === 'Line Items')!.rows.length - 1).toBe(content.lines.length);

    const again = await writeFlowToGoogleSheet(t.db, env, sheetsFlow);
    expect(again.appended).toEqual({ documents: 0, lines: 0 });
    expect(docsTab.rows.length).toBe(3);

    // Disconnect: revoked at Google, nothing left to write with.
    await disconnectGoogle(t.db, env, member.membership.organizationId);
    const after = await writeFlowToGoogleSheet(t.db, env, sheetsFlow).catch((e: unknown) => e);
    expect(isAppError(after, 'google_auth_required')).toBe(true);
    expect(guard.refused).toEqual([]);
  });

  it('re-processing a document replaces its rows in the sheet; a document that failed leaves it', async () => {
    await connect();
    const created = await createFlowSpreadsheet(t.db, {
      env,
      organizationId: member.membership.organizationId,
      input: {
        title: 'Re-processed',
        type: 'INVOICE',
      },
    });
    const wf = await createWorkflow(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      input: {
        name: 'Re-processed to Sheets',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'sheets', sheetId: created.spreadsheetId, sheetName: 'Re-processed' },
        },
      },
    });
    // Earlier tests read the same invoices: taken out of their flows, so these are not held back as copies.
    await t.db
      .update(documents)
      .set({ status: 'removed' })
      .where(eq(documents.organizationId, member.membership.organizationId));
    await addUploads(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      flowId: wf.id,
      files: [
        { name: 'invoice-011.pdf', bytes: await readFixture('invoice-011.pdf') },
        { name: 'invoice-018.pdf', bytes: await readFixture('invoice-018.pdf') },
        { name: 'invoice-040.pdf', bytes: await readFixture('invoice-040.pdf') },
      ],
    });
    await startRun(t.db, {
      env,
      jobs,
      user: member.user,
      flow: await requireFlow(t.db, member.membership, wf.id),
    });
    await drainJobs();
    const flow = await requireFlow(t.db, member.membership, wf.id);
    const ss = google.spreadsheets.get(created.spreadsheetId)!;
    const grid = (title: string) =>
      ss.sheets
        .find((s) => s.title === title)!
        .rows.slice(1)
        .map((r) => r.slice(0, -1).join('|'))
        .sort();
    /** What the sheet must hold: the database's rows, as a fresh write puts them. */
    const expected = async () => {
      const fresh = await createFlowSpreadsheet(t.db, {
        env,
        organizationId: member.membership.organizationId,
        input: {
          title: 'Fresh',
          type: 'INVOICE',
        },
      });
      await writeFlowToGoogleSheet(t.db, env, {
        ...flow,
        io: {
          input: flow.io.input,
          output: { kind: 'sheets', sheetId: fresh.spreadsheetId, sheetName: 'x' },
        },
      });
      const f = google.spreadsheets.get(fresh.spreadsheetId)!;
      const rows = (title: string) =>
        f.sheets
          .find((s) => s.title === title)!
          .rows.slice(1)
          .map((r) => r.slice(0, -1).join('|'))
          .sort();
      return { documents: rows('Documents'), lines: rows('Line Items') };
    };
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, wf.id));
    // Documents with rows in the sheet: read, and not held back as a copy of one an earlier test read.
    const inSheet = (d: (typeof docs)[number]) =>
      (d.status === 'done' || d.status === 'needs_review') &&
      (d.duplicateOf === null || d.approvedAt !== null);
    expect(docs.filter(inSheet).length).toBeGreaterThan(1);
    expect(grid('Line Items').length).toBeGreaterThan(0);

    // The sheet holds an older outcome of one document: a line the engine no longer reads, another number.
    const target = docs.find(inSheet)!;
    await t.db.execute(sql`insert into document_lines (document_id, flow_id, organization_id, line_no, data)
      values (${target.id}, ${wf.id}, ${member.membership.organizationId}, 99, ${JSON.stringify({ description: 'Stale line' })}::jsonb)`);
    await writeFlowToGoogleSheet(t.db, env, flow);
    expect(grid('Line Items').some((r) => r.includes('Stale line'))).toBe(true);
    const staleLines = grid('Line Items').length;

    // Re-process: the run re-extracts it and rewrites its rows in the sheet — not appended, not left stale.
    await reprocessDocument(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      id: target.id,
    });
    await drainJobs();
    const now = await expected();
    expect(grid('Line Items')).toEqual(now.lines);
    expect(grid('Documents')).toEqual(now.documents);
    expect(grid('Line Items')).toHaveLength(staleLines - 1);
    expect(grid('Line Items').some((r) => r.includes('Stale line'))).toBe(false);

    // A document now failed (say its re-processing could not read the file): its rows leave the sheet.
    const other = docs.find((d) => d.id !== target.id && inSheet(d))!;
    const docsBefore = grid('Documents').length;
    await t.db.update(documents).set({ status: 'failed' }).where(eq(documents.id, other.id));
    const result = await writeFlowToGoogleSheet(t.db, env, flow);
    expect(result.deleted.documents).toBe(1);
    expect(grid('Documents')).toHaveLength(docsBefore - 1);
    expect(grid('Documents')).toEqual((await expected()).documents);
    expect(grid('Line Items')).toEqual((await expected()).lines);
    expect(guard.refused).toEqual([]);
  });

  it('a Drive flow reads sub-folders only when its io.input.includeSubfolders says so', async () => {
    await connect();
    const folder = google.addFolder('AP');
    const nested = google.addFolder('Q1', folder);
    const deeper = google.addFolder('April', nested);
    google.addFile({
      name: 'top.pdf',
      mimeType: 'application/pdf',
      content: Buffer.from(await readFixture('invoice-011.pdf')),
      parent: folder,
    });
    google.addFile({
      name: 'deep.pdf',
      mimeType: 'application/pdf',
      content: Buffer.from(await readFixture('invoice-018.pdf')),
      parent: deeper,
    });
    const url = `https://drive.google.com/drive/folders/${folder}`;
    const names = async (includeSubfolders?: boolean) => {
      const wf = await createWorkflow(t.db, {
        env,
        user: member.user,
        membership: member.membership,
        input: {
          name: `Drive ${String(includeSubfolders)}`,
          types: ['INVOICE'],
          io: {
            input: {
              kind: 'drive',
              url,
              folderName: '',
              ...(includeSubfolders === undefined ? {} : { includeSubfolders }),
            },
            output: { kind: 'xlsx', sheetId: '', sheetName: 'Drive' },
          },
        },
      });
      const flow = await requireFlow(t.db, member.membership, wf.id);
      expect((flow.io as { input: { includeSubfolders?: boolean } }).input.includeSubfolders).toBe(
        includeSubfolders,
      );
      await startRun(t.db, { env, jobs, user: member.user, flow });
      await drainJobs();
      const rows = await t.db.select().from(documents).where(eq(documents.flowId, wf.id));
      return rows.map((d) => d.fileName).sort();
    };
    expect(await names(true)).toEqual(['Q1/April/deep.pdf', 'top.pdf']);
    expect(await names(false)).toEqual(['top.pdf']);
    // A flow saved before the option: only the folder's own files.
    expect(await names(undefined)).toEqual(['top.pdf']);
  });

  it('cleans the Drive cache: old files swept, files awaiting extraction kept, re-downloaded when needed, all gone on disconnect', async () => {
    await connect();
    const org = member.membership.organizationId;
    const cacheDir = getDriveCacheDir(env, org);
    await rm(cacheDir, { recursive: true, force: true }); // the earlier tests' downloads
    const folder = google.addFolder('Cache');
    const fileIds = [];
    for (const name of ['invoice-011.pdf', 'invoice-040.pdf'])
      fileIds.push(
        google.addFile({
          name,
          mimeType: 'application/pdf',
          content: Buffer.from(await readFixture(name)),
          parent: folder,
        }),
      );
    const wf = await createWorkflow(t.db, {
      env,
      user: member.user,
      membership: member.membership,
      input: {
        name: 'Drive cache',
        types: ['INVOICE'],
        io: {
          input: { kind: 'drive', url: `https://drive.google.com/drive/folders/${folder}`, folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: 'Cache' },
        },
      },
    });
    await startRun(t.db, {
      env,
      jobs,
      user: member.user,
      flow: await requireFlow(t.db, member.membership, wf.id),
    });
    await drainJobs();
    const docs = await t.db.select().from(documents).where(eq(documents.flowId, wf.id));
    expect(docs).toHaveLength(2);
    const [first, second] = docs as [(typeof docs)[0], (typeof docs)[0]];
    expect(first.status).not.toBe('failed');
    const cached = async () => (await readdir(cacheDir).catch(() => [] as string[])).sort();
    expect(await cached()).toHaveLength(2);

    // Within the retention nothing goes; a day later everything not awaiting extraction does.
    const hour = 60 * 60 * 1000;
    expect(
      await sweepDriveCache(t.db, { env, organizationId: org, options: { now: Date.now() + hour } }),
    ).toEqual({
      deleted: 0,
      kept: 2,
    });
    await t.db.update(documents).set({ status: 'pending' }).where(eq(documents.id, second.id));
    // An abandoned partial download, and a folder that is not an organisation's: the one goes, the other stays.
    await writeFile(join(cacheDir, 'x.pdf.abc.part'), 'partial');
    const foreign = join(env.dataDir, 'google-drive', 'not-an-org');
    await mkdir(foreign, { recursive: true });
    await writeFile(join(foreign, 'keep.pdf'), 'x');
    const old = new Date(Date.now() - 2 * hour);
    await utimes(join(cacheDir, 'x.pdf.abc.part'), old, old);
    const swept = await sweepDriveCaches(t.db, env, { now: Date.now() + 25 * hour });
    expect(swept.deleted).toBe(2); // the first document's file and the partial download
    expect(await cached()).toEqual([second.sourcePath!.split('/').pop()]);
    expect(await readdir(foreign)).toEqual(['keep.pdf']);
    await t.db.update(documents).set({ status: second.status }).where(eq(documents.id, second.id));

    // The document view and a re-process download the swept file again by its Drive id.
    const downloads = () =>
      google.requests.filter((r) => r.path === `/drive/v3/files/${first.sourceId}` && r.query.alt === 'media')
        .length;
    const before = downloads();
    const viewed = await getDocumentFile(t.db, { env, membership: member.membership, id: first.id });
    expect(viewed.path).toBe(first.sourcePath);
    expect((await stat(viewed.path)).size).toBe(first.size);
    expect(downloads()).toBe(before + 1);
    await sweepDriveCache(t.db, { env, organizationId: org, options: { now: Date.now() + 25 * hour } });
    expect(await cached()).toEqual([]);
    await reprocessDocument(t.db, {
      env,
      jobs,
      user: member.user,
      membership: member.membership,
      id: first.id,
    });
    await drainJobs();
    const [again] = await t.db.select().from(documents).where(eq(documents.id, first.id));
    expect(again?.status).toBe(first.status);
    expect(again?.errorMessage ?? null).toBeNull();
    expect(downloads()).toBe(before + 2);
    // Found in the cache this time: no download.
    await locateDriveDocumentFile(t.db, env, first);
    expect(downloads()).toBe(before + 2);

    // Drive now holds other bytes: that is a new document for the next run, not this one's file.
    google.files.get(first.sourceId)!.content = Buffer.from(await readFixture('invoice-018.pdf'));
    await sweepDriveCache(t.db, { env, organizationId: org, options: { now: Date.now() + 25 * hour } });
    const changed = await locateDriveDocumentFile(t.db, env, first).catch((e: unknown) => e);
    expect(isAppError(changed, 'conflict')).toBe(true);
    // A retry of a document whose file was deleted from Drive fails with that reason, not a crash.
    await t.db.update(documents).set({ status: 'failed' }).where(eq(documents.id, second.id));
    google.files.delete(second.sourceId);
    await sweepDriveCache(t.db, { env, organizationId: org, options: { now: Date.now() + 25 * hour } });
    await retryDocument(t.db, { env, jobs, user: member.user, membership: member.membership, id: second.id });
    await drainJobs();
    const [retried] = await t.db.select().from(documents).where(eq(documents.id, second.id));
    expect(retried?.status).toBe('failed');
    // The file's problem, in words a finance person understands — not "something went wrong on our side".
    expect(retried?.errorCode).toBe('source_unavailable');
    expect(retried?.errorMessage).toMatch(/no longer on Google Drive/);
    expect(JSON.stringify(retried?.extraction)).toMatch(/no longer on Google Drive/);

    // Disconnect: Bahi keeps none of the organisation's Drive files.
    await writeFile(join(cacheDir, 'left.pdf'), 'x');
    await disconnectGoogle(t.db, env, org);
    expect(await stat(cacheDir).catch(() => null)).toBeNull();
    expect(guard.refused).toEqual([]);
  });
});
